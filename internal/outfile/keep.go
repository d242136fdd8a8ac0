package outfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// WriteOrKeep is Write for the end of a run, when the bytes are a
// measurement that cannot be taken again. It renders the output first; if
// writing it to the destination then fails anyway (disk full, the directory
// removed meanwhile), the same bytes are written beside the target as
// "<target>.benchy-<pid>" or, failing that, into os.UserCacheDir()/benchy/,
// and kept is that path. The error then says "could not write X: why; the
// result is in Y". An error from write itself (rendering) is returned as it
// is, and nothing is kept, since there are no complete bytes to keep.
func (d *Dest) WriteOrKeep(write func(io.Writer) error) (kept string, err error) {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return "", err
	}
	err = d.Write(func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
	if err == nil {
		return "", nil
	}
	e := asWriteError(d, err)
	kept, kerr := d.keep(buf.Bytes())
	if kerr != nil {
		e.Err = &reason{msg: fmt.Sprintf("%v (and it could not be kept elsewhere: %v)", e.Err, kerr), err: e.Err}
		return "", e
	}
	e.Kept = kept
	return kept, e
}

// keep writes data to the first of keepPlaces that takes all of it.
func (d *Dest) keep(data []byte) (string, error) {
	places := d.keepPlaces()
	if len(places) == 0 {
		return "", errors.New("no place to keep it")
	}
	var last error
	for _, place := range places {
		name, err := keepAt(place.name, place.mkdir, data)
		if err == nil {
			return name, nil
		}
		last = err
	}
	return "", last
}

// keepPlaces lists where a result that could not be written may go: beside
// the target, where the user will look, if the target is a regular file
// (never beside a device: /dev/stdout.benchy-1 would be a file in /dev);
// else in the user's cache directory.
func (d *Dest) keepPlaces() []keepPlace {
	pid := strconv.Itoa(os.Getpid())
	var places []keepPlace
	name := filepath.Base(d.target)
	switch d.kind {
	case kindFile:
		places = append(places, keepPlace{d.target + ".benchy-" + pid, false})
	case kindFD:
		name = map[int]string{0: "stdin", 1: "stdout", 2: "stderr"}[d.fd]
		if name == "" {
			name = "fd" + strconv.Itoa(d.fd)
		}
	}
	if cache, err := os.UserCacheDir(); err == nil {
		places = append(places, keepPlace{filepath.Join(cache, "benchy", name+".benchy-"+pid), true})
	}
	return places
}

// keepPlace is a name to keep a result at, and whether its directory may
// be made: the cache's may, but a directory the user removed stays removed.
type keepPlace struct {
	name  string
	mkdir bool
}

// keepAt writes data to a new file named place (or place-2, place-3, ...
// if that exists: O_EXCL never writes over a file or through a planted
// link). A partial copy is removed, so a full disk leaves nothing behind.
func keepAt(place string, mkdir bool, data []byte) (string, error) {
	if mkdir {
		if err := os.MkdirAll(filepath.Dir(place), 0o700); err != nil {
			return "", explain(err)
		}
	}
	for i := 1; i <= 20; i++ {
		name := place
		if i > 1 {
			name += "-" + strconv.Itoa(i)
		}
		f, err := create(name, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", explain(err)
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			removeTemp(name)
			return "", explain(err)
		}
		forget(name)
		return name, nil
	}
	return "", fmt.Errorf("%s: too many kept results already", place)
}
