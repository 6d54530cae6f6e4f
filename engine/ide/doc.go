// Package ide decides, without I/O, what mcpdeck makes of the lock files
// editors write to announce their MCP server (coder/claudecode.nvim's
// PROTOCOL.md): whether a file may be trusted (CheckFile), what it says
// (Parse), whether the editor has the project open (Contains), and the
// dynamic server each such editor becomes, under a name that stays its
// own while the editor lives (Names, Editor.Server). The engine reads the
// directory, the files and the processes, and watches them.
package ide
