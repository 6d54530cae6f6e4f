package registry

// The parts of a server.json (the MCP Registry's server format) that say
// how to run a server and what it asks the person for. Everything here
// comes from the network: plan.go checks it before anything is built.

// Input is one value a server.json describes: fixed (Value, possibly with
// {variables}) or asked for (Default, Choices, Format, IsRequired,
// IsSecret).
type Input struct {
	Description string           `json:"description,omitempty"`
	IsRequired  bool             `json:"isRequired,omitempty"`
	IsSecret    bool             `json:"isSecret,omitempty"`
	Format      string           `json:"format,omitempty"` // string, number, boolean, filepath
	Value       string           `json:"value,omitempty"`
	Default     string           `json:"default,omitempty"`
	Placeholder string           `json:"placeholder,omitempty"`
	Choices     []string         `json:"choices,omitempty"`
	Variables   map[string]Input `json:"variables,omitempty"` // {name} in Value
	// Min and Max bound a number (a bundle's settings say so; a
	// server.json cannot).
	Min *float64 `json:"-"`
	Max *float64 `json:"-"`
}

// KeyValueInput is an environment variable or an HTTP header.
type KeyValueInput struct {
	Input
	Name string `json:"name"`
}

// Argument is a command-line argument: positional (a value, or asked for
// under ValueHint) or named (Name, then its value).
type Argument struct {
	Input
	Type       string `json:"type"` // positional, named
	Name       string `json:"name,omitempty"`
	ValueHint  string `json:"valueHint,omitempty"`
	IsRepeated bool   `json:"isRepeated,omitempty"`
}

// Transport is how a package is spoken to, or a remote's endpoint.
type Transport struct {
	Type      string           `json:"type"` // stdio, streamable-http, sse
	URL       string           `json:"url,omitempty"`
	Headers   []KeyValueInput  `json:"headers,omitempty"`
	Variables map[string]Input `json:"variables,omitempty"` // {name} in URL
}

// Remote is one URL the server is hosted at.
type Remote = Transport

// Package is one way to run the server locally.
type Package struct {
	RegistryType         string          `json:"registryType"` // npm, pypi, oci, nuget, mcpb
	RegistryBaseURL      string          `json:"registryBaseUrl,omitempty"`
	Identifier           string          `json:"identifier"`
	Version              string          `json:"version,omitempty"`
	FileSHA256           string          `json:"fileSha256,omitempty"`
	RuntimeHint          string          `json:"runtimeHint,omitempty"`
	RuntimeArguments     []Argument      `json:"runtimeArguments,omitempty"`
	PackageArguments     []Argument      `json:"packageArguments,omitempty"`
	EnvironmentVariables []KeyValueInput `json:"environmentVariables,omitempty"`
	Transport            Transport       `json:"transport,omitzero"`
}
