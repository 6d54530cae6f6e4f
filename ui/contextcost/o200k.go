package contextcost

import (
	"strings"

	"github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

// o200kPattern is how o200k_base splits text before byte-pair merging, as
// tiktoken-go defines it (TestOurO200kIsTiktokens holds the two alike).
var o200kPattern = strings.Join([]string{
	`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
	`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
	`\p{N}{1,3}`,
	` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
	`\s*[\r\n]+`,
	`\s+(?!\S)`,
	`\s+`,
}, "|")

// loadO200k builds the o200k_base encoding from the embedded ranks (never
// the network). It is built here rather than by tiktoken.GetEncoding,
// which keeps every encoding it made in a package-level cache for the
// life of the process: 30 MB a Counter could never let go.
func loadO200k() (*tiktoken.Tiktoken, error) {
	ranks, err := loader.NewOfflineLoader().LoadTiktokenBpe("o200k_base.tiktoken")
	if err != nil {
		return nil, err
	}
	special := map[string]int{tiktoken.ENDOFTEXT: 199999, tiktoken.ENDOFPROMPT: 200018}
	bpe, err := tiktoken.NewCoreBPE(ranks, special, o200kPattern)
	if err != nil {
		return nil, err
	}
	set := make(map[string]any, len(special))
	for k := range special {
		set[k] = true
	}
	return tiktoken.NewTiktoken(bpe, &tiktoken.Encoding{
		Name: Encoding, PatStr: o200kPattern, MergeableRanks: ranks, SpecialTokens: special,
	}, set), nil
}
