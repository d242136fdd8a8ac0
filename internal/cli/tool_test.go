package cli

// The cli links no store driver (a user's program imports the one it
// wants) and leaves benchy's own commands to cmd/benchy; its tests take
// both drivers and every command, as benchy's own command does.
import (
	_ "github.com/benchy-dev/benchy/store/postgres"
	_ "github.com/benchy-dev/benchy/store/sqlite"
)

func init() { AddToolCommands() }
