package scan

import (
	"encoding/json"
	"fmt"
)

// SARIF writes findings as a SARIF 2.1.0 log for code-scanning CI: one run
// of the tool mcpdeck (version), every rule described, each finding a
// result at its level, located in the file that defines its server
// (source, by server name; "" leaves the location logical only) and
// logically at server/kind/item.
func SARIF(findings []Finding, version string, source func(server string) string) []byte {
	type msg struct {
		Text string `json:"text"`
	}
	type rule struct {
		ID        string `json:"id"`
		Short     msg    `json:"shortDescription"`
		DefConfig struct {
			Level string `json:"level"`
		} `json:"defaultConfiguration"`
	}
	rules := make([]rule, len(Rules))
	index := map[string]int{}
	for i, r := range Rules {
		rules[i] = rule{ID: r.ID, Short: msg{r.Summary}}
		rules[i].DefConfig.Level = string(r.Level)
		index[r.ID] = i
	}
	results := make([]map[string]any, 0, len(findings))
	for _, f := range findings {
		loc := map[string]any{
			"logicalLocations": []map[string]string{{
				"fullyQualifiedName": fmt.Sprintf("%s/%s/%s", f.Server, f.Kind, f.Item), "kind": "member",
			}},
		}
		if src := source(f.Server); src != "" {
			loc["physicalLocation"] = map[string]any{"artifactLocation": map[string]string{"uri": src}}
		}
		results = append(results, map[string]any{
			"ruleId": f.Rule, "ruleIndex": index[f.Rule], "level": string(f.Level),
			"message":   msg{fmt.Sprintf("server %s, %s %s, %s: %s (%s)", f.Server, f.Kind, f.Item, f.Field, f.Message, f.Excerpt)},
			"locations": []any{loc},
		})
	}
	log := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name": "mcpdeck", "version": version, "informationUri": "https://github.com/mcpdeck/mcpdeck", "rules": rules,
			}},
			"results": results,
		}},
	}
	b, _ := json.MarshalIndent(log, "", "  ") // maps of strings and numbers: cannot fail
	return append(b, '\n')
}
