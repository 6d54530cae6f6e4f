// Package private keeps the person's private state of one project, in the
// user config dir and never in the working tree (StatePath): the local
// scope's servers and every decision — which project servers they approved
// and at which definition hash, which servers they disabled, their
// standing answer to each server's sampling requests, the tools they deny.
// It reads those decisions (ReadDecisions, Decisions) for model/config to
// apply while loading, records each one (RecordEnabled, RecordApproval,
// RecordSampling, RecordToolDenied), and deals with the file inside the
// project where older versions kept this state (UntrustedLocal): never
// trusted, noticed once, moved only when the person asks (Migrate). Nothing
// a repository ships or a collaborator commits can approve, enable or
// permit anything, because nothing of it is read from the tree.
//
// The file holds one JSON object; its members are listed beside their keys
// (decisions.go).
package private
