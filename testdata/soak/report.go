package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// maxSamples is how many examples of each kind of failure the report keeps.
const maxSamples = 12

// tally counts the agents' calls as they end.
type tally struct {
	mu          sync.Mutex
	calls, ok   int
	errs        int // errors that were explained
	faultCalls  int // fault calls that reached their server
	byPhase     map[string]*phaseCount
	lost        []string
	unexplained []string
	wrong       []string
	nLost       int
	nUnexpl     int
	nWrong      int
	causes      map[string]int // explained errors by their wording, numbers and addresses left out
	slowest     time.Duration
}

type phaseCount struct {
	Calls  int `json:"calls"`
	OK     int `json:"ok"`
	Errors int `json:"errors"`
}

func newTally() *tally {
	return &tally{byPhase: map[string]*phaseCount{}, causes: map[string]int{}}
}

func (t *tally) add(o outcome, phase string, verbose bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.calls++
	if o.fault && o.reached() {
		t.faultCalls++
	}
	pc := t.byPhase[phase]
	if pc == nil {
		pc = &phaseCount{}
		t.byPhase[phase] = pc
	}
	pc.Calls++
	t.slowest = max(t.slowest, o.took)
	name := o.server + "__" + o.tool
	switch {
	case o.lost:
		t.nLost++
		pc.Errors++
		t.lost = sample(t.lost, fmt.Sprintf("[%s] %s: no answer within %s (%s)", phase, name, callTimeout, o.err))
	case o.isErr:
		pc.Errors++
		if ok, why := explained(o.err, o.server); ok {
			t.errs++
			t.causes[cause(o.err, o.server)]++
		} else {
			t.nUnexpl++
			t.unexplained = sample(t.unexplained, fmt.Sprintf("[%s] %s: %q (%s)", phase, name, o.err, why))
		}
	case o.want != "" && o.result != o.want:
		t.nWrong++
		pc.Errors++
		t.wrong = sample(t.wrong, fmt.Sprintf("[%s] %s: got %q, want %q", phase, name, o.result, o.want))
	default:
		t.ok++
		pc.OK++
	}
	if verbose && (o.lost || o.isErr) {
		fmt.Fprintf(os.Stderr, "soak: [%s] %s: %s\n", phase, name, o.err)
	}
}

func sample(s []string, v string) []string {
	if len(s) >= maxSamples {
		return s
	}
	return append(s, v)
}

var (
	causeNumbers = regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)
	causeAddress = regexp.MustCompile(`127\.0\.0\.1:[0-9]+`)
)

// cause is an error's wording with its server, numbers and addresses
// left out, so the report can count errors by what they say.
func cause(msg, server string) string {
	msg = strings.ReplaceAll(msg, server, "S")
	msg = causeAddress.ReplaceAllString(msg, "ADDR")
	msg = causeNumbers.ReplaceAllString(msg, "N")
	if len(msg) > 160 {
		msg = msg[:160] + "…"
	}
	return msg
}

// report is the JSON a run writes (SOAK_REPORT) and its verdict.
type report struct {
	Command    string         `json:"command"`
	Mcpdeck    string         `json:"mcpdeck"`
	Seed       int64          `json:"seed"`
	Started    string         `json:"started"`
	DurationS  float64        `json:"duration_s"`
	Phases     map[string]any `json:"phases"`
	Servers    int            `json:"servers"`
	Transports map[string]int `json:"transports"`
	Agents     int            `json:"agents"`

	Calls          int                    `json:"calls"`
	OK             int                    `json:"ok"`
	Errors         int                    `json:"errors_explained"`
	FaultCalls     int                    `json:"fault_calls"`
	ByPhase        map[string]*phaseCount `json:"by_phase"`
	FaultsInjected int                    `json:"faults_injected"`
	Faults         map[string]int         `json:"faults"`
	Lost           int                    `json:"lost"`
	Unexplained    int                    `json:"unexplained"`
	Wrong          int                    `json:"wrong"`
	SlowestCallS   float64                `json:"slowest_call_s"`

	RSSStartMB      float64 `json:"rss_start_mb"`
	RSSEndMB        float64 `json:"rss_end_mb"`
	HeapStartMB     float64 `json:"heap_live_start_mb"`
	HeapEndMB       float64 `json:"heap_live_end_mb"`
	GoroutinesStart int     `json:"goroutines_start"`
	GoroutinesEnd   int     `json:"goroutines_end"`

	RecoveryS    float64  `json:"recovery_s"`
	RecoveryMaxS float64  `json:"recovery_bound_s"`
	NotRecovered []string `json:"not_recovered,omitempty"`
	// RecoveredByCall are the servers that had given up when the faults
	// stopped and connected again when the first call asked (serve's
	// promise for a failed or signed-out server), with that answer.
	RecoveredByCall []string `json:"recovered_by_a_call,omitempty"`
	ExitS           float64  `json:"exit_s"`
	ExitError       string   `json:"exit_error,omitempty"`

	Orphans    int      `json:"orphans"`
	OrphanList []string `json:"orphan_list,omitempty"`

	Writes     int      `json:"writes"`
	WritesLost int      `json:"writes_lost"`
	WritesList []string `json:"writes_lost_list,omitempty"`

	LostSamples        []string       `json:"lost_samples,omitempty"`
	UnexplainedSamples []string       `json:"unexplained_samples,omitempty"`
	WrongSamples       []string       `json:"wrong_samples,omitempty"`
	TopCauses          []causeCount   `json:"top_causes,omitempty"`
	Notes              []string       `json:"notes,omitempty"`
	Goals              map[string]any `json:"goals"`
	Missed             []string       `json:"missed"`
}

type causeCount struct {
	Cause string `json:"cause"`
	Count int    `json:"count"`
}

// fill copies the tally into the report.
func (r *report) fill(t *tally) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r.Calls, r.OK, r.Errors, r.FaultCalls = t.calls, t.ok, t.errs, t.faultCalls
	r.ByPhase = t.byPhase
	r.Lost, r.Unexplained, r.Wrong = t.nLost, t.nUnexpl, t.nWrong
	r.LostSamples, r.UnexplainedSamples, r.WrongSamples = t.lost, t.unexplained, t.wrong
	r.SlowestCallS = t.slowest.Seconds()
	for c, n := range t.causes {
		r.TopCauses = append(r.TopCauses, causeCount{c, n})
	}
	sort.Slice(r.TopCauses, func(i, j int) bool {
		if r.TopCauses[i].Count != r.TopCauses[j].Count {
			return r.TopCauses[i].Count > r.TopCauses[j].Count
		}
		return r.TopCauses[i].Cause < r.TopCauses[j].Cause
	})
	if len(r.TopCauses) > 20 {
		r.TopCauses = r.TopCauses[:20]
	}
}

// flatRatio is how much memory and goroutines may grow from the start
// sample to the end sample.
const flatRatio = 1.2

// verdict lists the goals the run missed, each named.
func (r *report) verdict() []string {
	r.Goals = map[string]any{
		"lost": 0, "unexplained": 0, "wrong": 0, "orphans": 0, "writes_lost": 0,
		"rss_end_mb":     fmt.Sprintf("<= %.1f x rss_start_mb", flatRatio),
		"goroutines_end": fmt.Sprintf("<= %.1f x goroutines_start", flatRatio),
		"recovery_s":     fmt.Sprintf("every server answers again within %.0f s of the faults stopping", recoveryBound.Seconds()),
		"exit":           fmt.Sprintf("serve exits 0 within %.0f s of SIGTERM", exitBound.Seconds()),
	}
	var m []string
	if r.Calls == 0 {
		m = append(m, "calls: no call was made")
	}
	if r.FaultsInjected == 0 {
		m = append(m, "faults_injected: no fault reached mcpdeck")
	}
	if r.Lost > 0 {
		m = append(m, fmt.Sprintf("lost: %d calls got neither a result nor an error within %s", r.Lost, callTimeout))
	}
	if r.Unexplained > 0 {
		m = append(m, fmt.Sprintf("unexplained: %d errors do not name the server and the cause", r.Unexplained))
	}
	if r.Wrong > 0 {
		m = append(m, fmt.Sprintf("wrong: %d results were not what the server answers", r.Wrong))
	}
	if r.RSSStartMB <= 0 || r.RSSEndMB > flatRatio*r.RSSStartMB {
		m = append(m, fmt.Sprintf("rss: %.1f MB at the end, %.1f MB at the start (limit %.1f ×)", r.RSSEndMB, r.RSSStartMB, flatRatio))
	}
	if r.GoroutinesStart <= 0 || float64(r.GoroutinesEnd) > flatRatio*float64(r.GoroutinesStart) {
		m = append(m, fmt.Sprintf("goroutines: %d at the end, %d at the start (limit %.1f ×)", r.GoroutinesEnd, r.GoroutinesStart, flatRatio))
	}
	if len(r.NotRecovered) > 0 {
		m = append(m, fmt.Sprintf("recovery: %d servers did not answer within %.0f s of the faults stopping: %s",
			len(r.NotRecovered), recoveryBound.Seconds(), strings.Join(r.NotRecovered, "; ")))
	}
	if r.ExitError != "" {
		m = append(m, "exit: "+r.ExitError)
	}
	if r.Orphans > 0 {
		m = append(m, fmt.Sprintf("orphans: %d processes outlived mcpdeck: %s", r.Orphans, strings.Join(r.OrphanList, "; ")))
	}
	if r.WritesLost > 0 {
		m = append(m, fmt.Sprintf("writes_lost: %d writes did not land or were corrupted: %s", r.WritesLost, strings.Join(r.WritesList, "; ")))
	}
	if r.Writes == 0 {
		m = append(m, "writes: no config, approval or secret write was made")
	}
	r.Missed = m
	if r.Missed == nil {
		r.Missed = []string{}
	}
	return m
}

// summary is the one line a run prints.
func (r *report) summary(missed []string) string {
	verdict := "PASS"
	if len(missed) > 0 {
		verdict = fmt.Sprintf("FAIL (%d goals missed)", len(missed))
	}
	return fmt.Sprintf("soak %s: %s, %d servers, %d agents: %d calls (%d ok, %d explained errors), %d faults injected, lost %d, unexplained %d, wrong %d, rss %.1f→%.1f MB, goroutines %d→%d, recovery %.1fs, orphans %d, writes %d (lost %d)",
		verdict, time.Duration(r.DurationS*float64(time.Second)).Round(time.Second), r.Servers, r.Agents, r.Calls, r.OK, r.Errors, r.FaultsInjected,
		r.Lost, r.Unexplained, r.Wrong, r.RSSStartMB, r.RSSEndMB, r.GoroutinesStart, r.GoroutinesEnd, r.RecoveryS, r.Orphans, r.Writes, r.WritesLost)
}

func (r *report) write(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
