package cli

// The cli links no store driver (a user's program imports the one it
// wants); its tests take both, as benchy's own command does.
import (
	_ "github.com/benchy-dev/benchy/store/postgres"
	_ "github.com/benchy-dev/benchy/store/sqlite"
)
