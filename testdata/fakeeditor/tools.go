package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model/platform"
)

// editor is the fake editor's state: its workspace folders and the file
// and selection openFile last made current.
type editor struct {
	workspaces []string
	mu         sync.Mutex
	file, sel  string
	start, end int // selection lines, 0-based
}

func newEditor(ws []string) *editor { return &editor{workspaces: ws} }

// server builds the MCP server with the editor's tools.
func (ed *editor) server() *server.MCPServer {
	s := server.NewMCPServer("fakeeditor", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("getDiagnostics", mcp.WithDescription("Diagnostics of the workspace's files (lines with ERROR:)"),
		mcp.WithString("uri", mcp.Description("file URI; all files when absent"))), ed.diagnostics)
	s.AddTool(mcp.NewTool("openFile", mcp.WithDescription("Open a file and optionally select text"),
		mcp.WithString("filePath", mcp.Required()), mcp.WithString("startText"), mcp.WithString("endText"),
		mcp.WithBoolean("makeFrontmost")), ed.openFile)
	s.AddTool(mcp.NewTool("openDiff", mcp.WithDescription("Show a proposed change for the person to accept or reject"),
		mcp.WithString("old_file_path"), mcp.WithString("new_file_path"), mcp.WithString("new_file_contents"),
		mcp.WithString("tab_name")), ed.openDiff)
	s.AddTool(mcp.NewTool("getCurrentSelection", mcp.WithDescription("The selection in the active editor")), ed.selection)
	s.AddTool(mcp.NewTool("executeCode", mcp.WithDescription(`Run code in the kernel (this editor runs print("…") lines only)`),
		mcp.WithString("code", mcp.Required())), ed.execute)
	return s
}

func text(v string) *mcp.CallToolResult { return mcp.NewToolResultText(v) }

func jsonText(v any) *mcp.CallToolResult {
	b, _ := json.Marshal(v)
	return text(string(b))
}

type diagnostic struct {
	Message  string `json:"message"`
	Severity string `json:"severity"`
	Line     int    `json:"line"`
}

type fileDiagnostics struct {
	URI         string       `json:"uri"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

// diagnostics reports every line containing "ERROR:" in the regular files
// under the workspace folders (or only in the file uri names).
func (ed *editor) diagnostics(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	only := req.GetString("uri", "")
	out := []fileDiagnostics{}
	for _, ws := range ed.workspaces {
		_ = filepath.WalkDir(ws, func(path string, d fs.DirEntry, err error) error {
			uri := platform.FileURI(path)
			if err != nil || !d.Type().IsRegular() || (only != "" && uri != only) {
				return nil //nolint:nilerr // an unreadable file has no diagnostics
			}
			if ds := scan(path); len(ds) > 0 {
				out = append(out, fileDiagnostics{URI: uri, Diagnostics: ds})
			}
			return nil
		})
	}
	return jsonText(out), nil
}

func scan(path string) []diagnostic {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var ds []diagnostic
	sc := bufio.NewScanner(f)
	for n := 0; sc.Scan(); n++ {
		if _, msg, ok := strings.Cut(sc.Text(), "ERROR:"); ok {
			ds = append(ds, diagnostic{Message: strings.TrimSpace(msg), Severity: "Error", Line: n})
		}
	}
	return ds
}

// openFile opens an existing file and selects from the line holding
// startText to the line holding endText.
func (ed *editor) openFile(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	path := req.GetString("filePath", "")
	b, err := os.ReadFile(path)
	if err != nil {
		return mcp.NewToolResultError("cannot open " + path + ": " + err.Error()), nil
	}
	lines := strings.Split(string(b), "\n")
	start, end := find(lines, req.GetString("startText", ""), 0), -1
	if start >= 0 {
		end = find(lines, req.GetString("endText", ""), start)
		if end < 0 {
			end = start
		}
	}
	ed.mu.Lock()
	ed.file, ed.start, ed.end, ed.sel = path, start, end, ""
	if start >= 0 {
		ed.sel = strings.Join(lines[start:end+1], "\n")
	}
	ed.mu.Unlock()
	if !req.GetBool("makeFrontmost", true) {
		return jsonText(map[string]any{"success": true, "filePath": path, "lineCount": len(lines)}), nil
	}
	return text("Opened file: " + path), nil
}

// find is the index of the first line from from on that contains s, -1
// for none or an empty s.
func find(lines []string, s string, from int) int {
	if s == "" {
		return -1
	}
	for i := from; i < len(lines); i++ {
		if strings.Contains(lines[i], s) {
			return i
		}
	}
	return -1
}

func (ed *editor) selection(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ed.mu.Lock()
	defer ed.mu.Unlock()
	if ed.file == "" {
		return jsonText(map[string]any{"success": false, "message": "No active editor found"}), nil
	}
	return jsonText(map[string]any{
		"success": true, "text": ed.sel, "filePath": ed.file,
		"selection": map[string]any{"start": map[string]int{"line": max(ed.start, 0)}, "end": map[string]int{"line": max(ed.end, 0)}},
	}), nil
}

// openDiff rejects: a real editor waits for the person, and no one is
// here to accept.
func (ed *editor) openDiff(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return text("DIFF_REJECTED"), nil
}

// execute runs print("…") lines and refuses anything else.
func (ed *editor) execute(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var out []string
	for i, line := range strings.Split(strings.TrimSpace(req.GetString("code", "")), "\n") {
		arg, ok := strings.CutPrefix(strings.TrimSpace(line), "print(")
		arg, ok2 := strings.CutSuffix(arg, ")")
		s, err := strconv.Unquote(arg)
		if !ok || !ok2 || err != nil {
			return mcp.NewToolResultError(fmt.Sprintf("line %d: this editor's kernel runs only print(\"…\") lines", i+1)), nil
		}
		out = append(out, s)
	}
	return text(strings.Join(out, "\n")), nil
}
