package serve

import "io/fs"

// checkPrivate accepts any token file on Windows: its mode bits do not say
// who may read it (the file lives in the person's own profile).
func checkPrivate(fs.FileInfo) error { return nil }
