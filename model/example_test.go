package model_test

import (
	"fmt"

	"github.com/mcpdeck/mcpdeck/model"
)

// The approval prompt shows what a repository changed in a server it brought.
func ExampleDiff() {
	approved := model.ServerConfig{Command: "npx", Args: []string{"-y", "safe-tool"}}
	current := model.ServerConfig{Command: "npx", Args: []string{"-y", "evil-tool"}, Env: map[string]string{"DEBUG": "1"}}
	fmt.Print(model.Diff(approved, current))
	// Output:
	//   {
	//     "args": [
	//       "-y",
	// -     "safe-tool"
	// +     "evil-tool"
	//     ],
	//     "command": "npx",
	// +   "env": {
	// +     "DEBUG": "1"
	// +   },
	//     "type": "stdio"
	//   }
}

func ExampleToolName() {
	fmt.Println(model.ToolName("my.server", "create issue"))
	// Output: mcp__my_server__create_issue
}

func ExampleExpand() {
	env := map[string]string{"API_TOKEN": "t0k"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	out, missing := model.Expand("Bearer ${API_TOKEN} ${REGION:-eu} ${MISSING} $$ $5", lookup)
	fmt.Printf("%q %v\n", out, missing)
	// Output: "Bearer t0k eu  $$ $5" [${MISSING}]
}
