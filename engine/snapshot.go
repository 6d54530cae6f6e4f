package engine

import (
	"encoding/json"
	"time"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/pins"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
)

// Snapshot is an immutable copy of every server's state, published by the
// engine after each change. Receivers must treat every slice and map in it as
// read-only: unchanged parts are shared between consecutive snapshots.
type Snapshot struct {
	Seq     uint64           `json:"seq"`
	At      time.Time        `json:"at"`
	Servers []ServerSnapshot `json:"servers"` // sorted by scope (high→low), then name
	// Problems are config-file problems not tied to one server (a broken file).
	Problems []model.Problem `json:"problems,omitempty"`
	// Warnings are things the person should see once, e.g. "tokens are stored
	// in a file because no keychain is available".
	Warnings []string `json:"warnings,omitempty"`
}

// ServerSnapshot is one server as the UIs see it.
type ServerSnapshot struct {
	Name   string      `json:"name"`
	Scope  model.Scope `json:"scope"`
	Source string      `json:"source"`
	// Editor is the editor an IDE server belongs to (engine/ide), nil for
	// every server a file defines; Source then says "from NAME (pid N)".
	Editor    *model.Editor   `json:"editor,omitempty"`
	Overrides []model.Origin  `json:"overrides,omitempty"`
	Transport model.Transport `json:"transport"`
	// Config is the definition as written, redacted by model.Redact: literal
	// env and header values, URL credentials and secret-flag args masked,
	// ${VAR} references left visible (they name a variable, not a secret).
	Config model.ServerConfig `json:"config"`
	// Written is the definition exactly as written in Source, not masked,
	// only for a project server the person has not approved (pending,
	// changed or rejected): its values come from the repository, and the
	// approval prompt shows them all (config.ApprovalView). Nil for every
	// other server, so the literal secrets of the person's own servers
	// never leave the engine unmasked. Not in JSON output.
	Written *model.ServerConfig `json:"-"`
	// Sandbox is what the sandbox of a server awaiting approval would
	// open on this machine (links resolved, ${VAR}s expanded), which the
	// approval prompt shows; nil for every other server.
	Sandbox *sandbox.View `json:"sandboxProfile,omitempty"`
	// RunsIn is the directory a stdio server starts in (model.Server.RunsIn),
	// which the approval prompt shows.
	RunsIn string `json:"runsIn,omitempty"`
	// Target is the command line or URL, redacted, for one-line display.
	Target string `json:"target"`
	Hash   string `json:"hash"`

	State       model.State `json:"state"`
	Attempt     int         `json:"attempt,omitempty"` // reconnect attempt n of MaxAttempts while pending
	MaxAttempts int         `json:"maxAttempts,omitempty"`
	NextRetry   time.Time   `json:"nextRetry,omitzero"` // zero unless a retry is scheduled
	// Error is the cause of the last failure in words (what Reason.Error
	// says, or a list problem of a connected server); ErrorDetail the full
	// text. How the state words it ("Gave up after 5 reconnect attempts:
	// …") is ui/status's business.
	Error       string `json:"error,omitempty"`
	ErrorDetail string `json:"errorDetail,omitempty"`
	ErrorClass  string `json:"errorClass,omitempty"`
	ExitCode    *int   `json:"exitCode,omitempty"` // last exit of a stdio child

	Enabled  bool                 `json:"enabled"`
	Approval model.Approval       `json:"approval"`
	Policy   model.PolicyDecision `json:"policy"`
	Problems []model.Problem      `json:"problems,omitempty"`
	// Reason is the structured cause of State (none when connected), chosen
	// by the reducer (engine/lifecycle); Blockers are every standing reason
	// the definition may not run (policy, disabled, approval, config
	// problems, command not found), most decisive first. The UIs word both
	// in one formatter (ui/status); they never parse Error.
	Reason   model.Reason   `json:"reason,omitzero"`
	Blockers []model.Reason `json:"blockers,omitempty"`
	// Runnable is the engine's decision whether the server may run as its
	// definition stands (model.Server.Runnable): whether a reconnect can
	// start it. When false, Blockers[0] is why; a command not found, which
	// comes last, does not make it false. The UIs show it; they do not
	// decide it again.
	Runnable bool `json:"runnable"`
	// AuthURL is the sign-in URL while Authenticate runs, to show or copy.
	AuthURL string `json:"authUrl,omitempty"`

	ServerInfo      Implementation     `json:"serverInfo,omitzero"`
	ProtocolVersion string             `json:"protocolVersion,omitempty"`
	Instructions    string             `json:"instructions,omitempty"` // capped at 2048
	Tools           []Tool             `json:"tools,omitempty"`
	Resources       []Resource         `json:"resources,omitempty"`
	Templates       []ResourceTemplate `json:"resourceTemplates,omitempty"`
	Prompts         []Prompt           `json:"prompts,omitempty"`
	Skills          []Skill            `json:"skills,omitempty"` // listed only; files are read on LoadSkill
	// Pins is how what the server tells a model stands against what the
	// person accepted: the changes (those withheld are marked on the
	// tools, prompts and templates too) and the scan's findings.
	Pins PinReport `json:"pins,omitzero"`
	// Remembered are the server's last lists (Options.RememberLists): the
	// live ones once listed in this run, else an earlier run's, until a
	// connection lists it; nil when none are known for its definition.
	// Not in JSON output.
	Remembered *RememberedLists `json:"-"`
	StderrTail []string         `json:"stderrTail,omitempty"`
	// Logs are the server's last log messages (notifications/message), at
	// most 1 000, oldest first; LogErrors counts those at error or above
	// since mcpdeck started.
	Logs      []LogEntry `json:"logs,omitempty"`
	LogErrors int        `json:"logErrors,omitempty"`
	// Traffic is the server's last JSON-RPC frames both ways, oldest first:
	// at most 500, their bodies together at most 4 MB, secrets masked, kept
	// across reconnects; TrafficDropped counts older frames let go. Not in
	// --json output: mcpdeck --trace FILE and doctor --bundle write them.
	Traffic        []Frame `json:"-"`
	TrafficDropped int     `json:"-"`
	// Refusals are the last connections the server's sandbox proxy
	// refused (at most maxRefusals, oldest first), as the proxy reported
	// them: the H key allows the newest one's Allow entry.
	Refusals []Refusal `json:"refusals,omitempty"`
	// Sampling is the server's last sampling requests and their answers
	// (at most 50, oldest first); SamplingDecision the person's standing
	// answer ("" = ask each time).
	Sampling []SampleRecord `json:"sampling,omitempty"`
	// Watched are the resources the person subscribed to, by URI order,
	// with their latest content.
	Watched []WatchedResource `json:"watched,omitempty"`
	// Subscriptions says the connected server offers resource
	// subscriptions (Engine.Watch).
	Subscriptions    bool                   `json:"subscriptions,omitempty"`
	SamplingDecision model.SamplingDecision `json:"samplingDecision,omitempty"`
	// Flood is the latest burst of the server's requests (elicitation,
	// sampling, input) declined because MaxPendingAsks already waited for
	// an answer; zero when there was none.
	Flood   AskFlood     `json:"flood,omitzero"`
	History []Transition `json:"history,omitempty"` // most recent last, capped
}

// Implementation is a server's name and version from initialize.
type Implementation struct {
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
}

// Transition is one entry of a server's state history (lifecycle.Transition).
type Transition = lifecycle.Transition

// Tool is a server's tool with sanitized text (control/bidi characters
// stripped, description capped) and its exposed mcp__server__tool name.
type Tool struct {
	Name        string          `json:"name"`
	ExposedName string          `json:"exposedName"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	ReadOnly    bool            `json:"readOnly,omitempty"`
	Destructive bool            `json:"destructive,omitempty"`
	OpenWorld   bool            `json:"openWorld,omitempty"`
	// Denied is set when permission rules forbid calling this tool.
	Denied bool `json:"denied,omitempty"`
	// Collision names the other tools with the same ExposedName (after
	// name normalization two tools can meet), "" when there are none.
	Collision string `json:"collision,omitempty"`
	// Withheld is set while the tool is new or changed since the person
	// accepted the server's tools (or differs from the lock file): it is
	// not offered nor called until they review it (ServerSnapshot.Pins).
	Withheld pins.Status `json:"withheld,omitempty"`
}

// Resource is a listed resource.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

// ResourceTemplate is a listed resource template (RFC 6570 URI template).
type ResourceTemplate struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	// Withheld is set like Tool.Withheld.
	Withheld pins.Status `json:"withheld,omitempty"`
}

// Prompt is a listed prompt with its arguments.
type Prompt struct {
	Name        string           `json:"name"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
	// Withheld is set like Tool.Withheld.
	Withheld pins.Status `json:"withheld,omitempty"`
}

// PromptArgument is one argument a prompt takes.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}
