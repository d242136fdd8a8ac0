package history

import "testing"

// A commit is quoted by its first 12 hex digits everywhere (notes,
// tables, charts); anything shorter is quoted whole.
func TestShort(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"0123456789abcdef0123456789abcdef01234567", "0123456789ab"},
		{"0123456789ab", "0123456789ab"},
		{"abc", "abc"},
		{"", ""},
	} {
		if got := Short(tt.in); got != tt.want {
			t.Errorf("Short(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
