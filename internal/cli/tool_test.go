package cli

// The cli links no store driver (a user's program imports the one it
// wants); its tests take both drivers, as benchy's own command does, for
// run --store. benchy's own commands (toolcmd) are tested in theirs.
import (
	_ "github.com/benchy-dev/benchy/store/postgres"
	_ "github.com/benchy-dev/benchy/store/sqlite"
)
