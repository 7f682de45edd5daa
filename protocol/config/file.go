package config

// File is one config file as parsed: its name (in error positions), its
// config with Default's values where it sets nothing, and where it sets each
// key. Resolve needs the keys a file sets: a key the repository leaves out
// takes the base's value, whatever the default.
type File struct {
	Name   string
	Config *Config
	// Set holds the position of every key the file gives a value (not
	// null), by field path: "owners", "limits.corrections",
	// "deploy.environments.production.require".
	Set map[string]Pos
}

// Pos is a key's line and column in its file (1-based).
type Pos struct {
	Line, Column int
}

// ParseFile is Parse that also records the keys the file sets.
func ParseFile(filename string, data []byte) (*File, error) {
	set := map[string]Pos{}
	c, err := decode(&decoder{file: filename, pathRule: checkPath, set: set}, data)
	if err != nil {
		return nil, err
	}
	return &File{Name: filename, Config: c, Set: set}, nil
}

// DefaultFile is the File of a repository without a config file: the
// defaults, setting nothing.
func DefaultFile(filename string) *File {
	return &File{Name: filename, Config: Default(), Set: map[string]Pos{}}
}

// sets reports whether the file sets key, and where.
func (f *File) sets(key string) (Pos, bool) {
	p, ok := f.Set[key]
	return p, ok
}
