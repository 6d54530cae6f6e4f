package main

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A tool that needs the client's answer asks it as a request on protocols
// before 2026-07-28, and as an input-required result (keyed "ask",
// answered by the retry's inputResponses) on 2026-07-28, which has no
// server-to-client requests.

// sample is a sampling question: the client's reply, or (modern, not yet
// answered) the input-required result to return.
func sample(ctx context.Context, s *server.MCPServer, req mcp.CallToolRequest, p mcp.CreateMessageParams) (*mcp.CreateMessageResult, *mcp.CallToolResult, error) {
	if !server.IsModernRequest(ctx) {
		res, err := s.RequestSampling(ctx, mcp.CreateMessageRequest{Request: mcp.Request{Method: string(mcp.MethodSamplingCreateMessage)}, CreateMessageParams: p})
		return res, nil, err
	}
	if res := server.SamplingResponse(req.Params.InputResponses, "ask"); res != nil {
		return res, nil, nil
	}
	return nil, server.NewInputRequestBuilder("").Sample("ask", p).ToolResult(), nil
}

// elicit is sample for an elicitation.
func elicit(ctx context.Context, s *server.MCPServer, req mcp.CallToolRequest, p mcp.ElicitationParams) (*mcp.ElicitationResult, *mcp.CallToolResult, error) {
	if !server.IsModernRequest(ctx) {
		res, err := s.RequestElicitation(ctx, mcp.ElicitationRequest{Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)}, Params: p})
		return res, nil, err
	}
	if res := server.ElicitationResponse(req.Params.InputResponses, "ask"); res != nil {
		return res, nil, nil
	}
	return nil, server.NewInputRequestBuilder("").Elicit("ask", p).ToolResult(), nil
}

// form is an elicitation asking for one string property.
func form(message, prop string) mcp.ElicitationParams {
	return mcp.ElicitationParams{Message: message, RequestedSchema: map[string]any{
		"type": "object", "properties": map[string]any{prop: map[string]any{"type": "string"}}, "required": []string{prop},
	}}
}

// question is a sampling request of one user message.
func question(text string, maxTokens int) mcp.CreateMessageParams {
	return mcp.CreateMessageParams{
		Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.TextContent{Type: "text", Text: text}}},
		MaxTokens: maxTokens,
	}
}

// sealer signs request states, so a tampered one is refused: the state
// is "payload.mac", mac an HMAC-SHA256 under a key made at start.
type sealer struct{ key []byte }

func newSealer() sealer {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return sealer{key: k}
}

func (s sealer) seal(payload string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return payload + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

var errTampered = errors.New("requestState failed its integrity check")

func (s sealer) open(state string) (string, error) {
	i := strings.LastIndexByte(state, '.')
	if i < 0 || !hmac.Equal([]byte(s.seal(state[:i])), []byte(state)) {
		return "", errTampered
	}
	return state[:i], nil
}

// text is the string an answer carries under prop, or "".
func text(res *mcp.ElicitationResult, prop string) string {
	if res == nil {
		return ""
	}
	m, _ := res.Content.(map[string]any)
	v, _ := m[prop].(string)
	return v
}

// sampled is the text of a sampling reply, or "".
func sampled(res *mcp.CreateMessageResult) string {
	if res == nil {
		return ""
	}
	if c, ok := res.Content.(mcp.TextContent); ok {
		return c.Text
	}
	return fmt.Sprint(res.Content)
}

// registerInputRequired adds the tools and the prompt the 2026-07-28
// input-required scenarios call.
func registerInputRequired(s *server.MCPServer) {
	seal := newSealer()
	noArgs := func(name, desc string) mcp.Tool { return mcp.NewTool(name, mcp.WithDescription(desc)) }

	s.AddTool(noArgs("test_input_required_result_elicitation", "Asks the user's name through an input-required result"),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if res := server.ElicitationResponse(req.Params.InputResponses, "user_name"); res != nil {
				return mcp.NewToolResultText("Hello, " + text(res, "name") + "!"), nil
			}
			return server.NewInputRequestBuilder("").Elicit("user_name", form("What is your name?", "name")).ToolResult(), nil
		})
	s.AddTool(noArgs("test_input_required_result_sampling", "Asks the client's model through an input-required result"),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if res := server.SamplingResponse(req.Params.InputResponses, "capital_question"); res != nil {
				return mcp.NewToolResultText("The model said: " + sampled(res)), nil
			}
			return server.NewInputRequestBuilder("").Sample("capital_question", question("What is the capital of France?", 100)).ToolResult(), nil
		})
	s.AddTool(noArgs("test_input_required_result_list_roots", "Asks the client's roots through an input-required result"),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if res := server.RootsResponse(req.Params.InputResponses, "client_roots"); res != nil {
				var uris []string
				for _, r := range res.Roots {
					uris = append(uris, r.URI)
				}
				return mcp.NewToolResultText(fmt.Sprintf("%d roots: %s", len(uris), strings.Join(uris, ", "))), nil
			}
			return server.NewInputRequestBuilder("").Roots("client_roots").ToolResult(), nil
		})
	s.AddTool(noArgs("test_input_required_result_request_state", "Round-trips a request state"),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if res := server.ElicitationResponse(req.Params.InputResponses, "confirm"); res != nil && req.Params.RequestState != "" {
				payload, err := seal.open(req.Params.RequestState)
				if err != nil {
					return nil, err
				}
				return mcp.NewToolResultText("state " + payload + " confirmed"), nil
			}
			ok := mcp.ElicitationParams{Message: "Please confirm", RequestedSchema: map[string]any{
				"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}, "required": []string{"ok"},
			}}
			return server.NewInputRequestBuilder(seal.seal("confirm")).Elicit("confirm", ok).ToolResult(), nil
		})
	s.AddTool(noArgs("test_input_required_result_multiple_inputs", "Asks three things at once"),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			name := server.ElicitationResponse(req.Params.InputResponses, "user_name")
			greeting := server.SamplingResponse(req.Params.InputResponses, "greeting")
			roots := server.RootsResponse(req.Params.InputResponses, "client_roots")
			if name != nil && greeting != nil && roots != nil && req.Params.RequestState != "" {
				if _, err := seal.open(req.Params.RequestState); err != nil {
					return nil, err
				}
				return mcp.NewToolResultText(fmt.Sprintf("%s, %s (%d roots)", sampled(greeting), text(name, "name"), len(roots.Roots))), nil
			}
			return server.NewInputRequestBuilder(seal.seal("multiple")).
				Elicit("user_name", form("What is your name?", "name")).
				Sample("greeting", question("Generate a greeting", 50)).
				Roots("client_roots").ToolResult(), nil
		})
	s.AddTool(noArgs("test_input_required_result_multi_round", "Asks in two rounds"),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			round := ""
			if req.Params.RequestState != "" {
				var err error
				if round, err = seal.open(req.Params.RequestState); err != nil {
					return nil, err
				}
			}
			if round == "round-2" {
				if res := server.ElicitationResponse(req.Params.InputResponses, "step2"); res != nil {
					return mcp.NewToolResultText("Your favorite color is " + text(res, "color")), nil
				}
			}
			if round == "round-1" {
				if res := server.ElicitationResponse(req.Params.InputResponses, "step1"); res != nil {
					return server.NewInputRequestBuilder(seal.seal("round-2")).Elicit("step2", form("Step 2: What is your favorite color?", "color")).ToolResult(), nil
				}
			}
			return server.NewInputRequestBuilder(seal.seal("round-1")).Elicit("step1", form("Step 1: What is your name?", "name")).ToolResult(), nil
		})
	s.AddTool(noArgs("test_input_required_result_tampered_state", "Refuses a tampered request state"),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.RequestState != "" {
				if _, err := seal.open(req.Params.RequestState); err != nil {
					return nil, err
				}
				return mcp.NewToolResultText("state intact"), nil
			}
			return server.NewInputRequestBuilder(seal.seal("tamper-me")).Elicit("confirm", form("Please confirm", "ok")).ToolResult(), nil
		})
	s.AddTool(noArgs("test_input_required_result_capabilities", "Asks only what the client declared it can answer"),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if len(req.Params.InputResponses) > 0 {
				return mcp.NewToolResultText(fmt.Sprintf("%d answers", len(req.Params.InputResponses))), nil
			}
			caps := declared(req.Params.Meta)
			b := server.NewInputRequestBuilder("")
			asked := false
			if _, ok := caps["elicitation"]; ok {
				b, asked = b.Elicit("user_name", form("What is your name?", "name")), true
			}
			if _, ok := caps["sampling"]; ok {
				b, asked = b.Sample("greeting", question("Generate a greeting", 50)), true
			}
			if !asked {
				return mcp.NewToolResultText("the client declared nothing to ask"), nil
			}
			return b.ToolResult(), nil
		})
	s.AddPrompt(mcp.NewPrompt("test_input_required_result_prompt", mcp.WithPromptDescription("A prompt that asks for its context")),
		func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			if res := server.ElicitationResponse(req.Params.InputResponses, "user_context"); res != nil {
				return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: mcp.RoleUser, Content: mcp.TextContent{Type: "text", Text: "Context: " + text(res, "context")}}}}, nil
			}
			return server.NewInputRequestBuilder("").Elicit("user_context", form("What context should the prompt use?", "context")).PromptResult(), nil
		})
}

// schema202012 is the JSON Schema 2020-12 input schema the
// json-schema-2020-12 scenario expects to find unchanged in tools/list.
const schema202012 = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",` +
	`"$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},` +
	`"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},` +
	`"phone":{"type":"string"},"email":{"type":"string"}},"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],` +
	`"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},` +
	`"else":{"required":["email"]},"additionalProperties":false}`

// registerSchemaTool adds json_schema_2020_12_tool.
func registerSchemaTool(s *server.MCPServer) {
	s.AddTool(mcp.NewToolWithRawSchema("json_schema_2020_12_tool", "Takes a JSON Schema 2020-12 input", json.RawMessage(schema202012)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		})
}

// declared is the client capabilities a 2026-07-28 request carries in
// its _meta.
func declared(meta *mcp.Meta) map[string]any {
	if meta == nil {
		return nil
	}
	caps, _ := meta.AdditionalFields["io.modelcontextprotocol/clientCapabilities"].(map[string]any)
	return caps
}
