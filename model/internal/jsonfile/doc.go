// Package jsonfile is the one way model's packages read and edit a JSON
// configuration file. Read takes only a regular file of at most
// MaxConfigSize (never a FIFO or device that could block), parses it with
// jsondoc and names each problem by file, line and column (ServersIn does
// so for the servers it holds). Edit is the one read-modify-write: it finds
// the real file behind symlinks (refusing a project file that leads out of
// the project), locks it, clears what an interrupted write left, refuses a
// broken file, splices only the member that changes (SetMember,
// DeleteMember: every other byte stays) and replaces the file atomically,
// keeping its mode.
package jsonfile
