package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// mcpClientDir holds the official MCP TypeScript SDK, the MCP Inspector
// and conformance.mjs.
const mcpClientDir = "mcp-client"

// runNode runs a node program in dir with BASE_URL set and returns its
// standard output; it fails the test when the program does.
func runNode(t *testing.T, bin, dir, url string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "BASE_URL="+url, "NO_COLOR=1", "HOME="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("node %s timed out\nstdout: %s\nstderr: %s", strings.Join(args, " "), stdout.String(), stderr.String())
	}
	if err != nil {
		err = fmt.Errorf("%w\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	return stdout.String(), err
}

// conformanceCase is one line of conformance.mjs's report.
type conformanceCase struct {
	Case       string         `json:"case"`
	Tool       string         `json:"tool"`
	SDK        string         `json:"sdk"`
	Tools      []string       `json:"tools"`
	IsError    bool           `json:"isError"`
	Text       string         `json:"text"`
	Structured map[string]any `json:"structured"`
	Threw      string         `json:"threw"`
	Status     int            `json:"status"`
	Body       struct {
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	} `json:"body"`
	RawBody string `json:"rawBody"`
}

// TestMCPConformanceTypeScriptSDK calls every tool on its success and error
// paths with the official MCP TypeScript SDK client. The SDK checks each
// result against the tool's outputSchema, errors included, and throws
// -32602 on a mismatch; the user must see the error's text instead: the
// suggested code, the payment terms, the quota's reset time.
func TestMCPConformanceTypeScriptSDK(t *testing.T) {
	bin := nodeFor(t, mcpClientDir, "the MCP conformance test", "@modelcontextprotocol/sdk")
	url := serve(t)
	out, err := runNode(t, bin, mcpClientDir, url, "conformance.mjs")
	if err != nil {
		t.Fatalf("conformance.mjs: %v", err)
	}
	cases := map[string]conformanceCase{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var c conformanceCase
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("report line %q: %v", line, err)
		}
		if c.Threw != "" {
			t.Errorf("%s %s: the SDK client threw %q", c.Tool, c.Case, c.Threw)
		}
		cases[c.Tool+" "+c.Case] = c
	}
	t.Logf("@modelcontextprotocol/sdk %s, tools %v", cases[" tools/list"].SDK, cases[" tools/list"].Tools)

	for _, want := range []struct {
		key     string
		isError bool
		// code is the machine code in structuredContent ("error" or "code").
		code string
		// text must appear in the result's text content.
		text []string
	}{
		{"check_entry_requirements answer", false, "", []string{"Germany", "Thailand", "2026-02-17"}},
		{"check_entry_requirements invalid_code", true, "invalid_parameters", []string{"GER", "DEU"}},
		{"check_entry_requirements rate_limited", true, "rate_limited", []string{"ip_daily", "limit 5", "T00:00:00Z"}},
		{"evaluate_trip payment_required", true, "payment_required", []string{`"accepts"`, "100000", "eip155:8453", "x402/payment"}},
		{"evaluate_trip invalid_trip", true, "invalid_parameters", []string{"/trip/legs"}},
		{"get_dataset_info answer", false, "", []string{"2026-02-17"}},
		{"get_dataset_info unknown_argument", true, "invalid_parameters", []string{"takes no arguments"}},
	} {
		c, ok := cases[want.key]
		if !ok {
			t.Errorf("%s: not reported", want.key)
			continue
		}
		// Error bodies carry the code in "error"; x402's PaymentRequired
		// has its own "error" (a sentence), so the code goes in "code".
		code, _ := c.Structured["code"].(string)
		if code == "" {
			code, _ = c.Structured["error"].(string)
		}
		if c.IsError != want.isError || code != want.code || c.Structured == nil {
			t.Errorf("%s: isError %v, code %q, structured %v; want isError %v, code %q", want.key, c.IsError, code, c.Structured != nil, want.isError, want.code)
		}
		for _, s := range want.text {
			if !strings.Contains(c.Text, s) {
				t.Errorf("%s: text lacks %q:\n%s", want.key, s, c.Text)
			}
		}
	}

	for _, want := range []struct {
		key  string
		code int
	}{
		{" unknown_method", -32601},
		{" parse_error", -32700},
	} {
		c := cases[want.key]
		if c.Body.Error == nil || c.Body.Error.Code != want.code || c.Body.Error.Message == "" {
			t.Errorf("%s: HTTP %d, body %+v %s; want the JSON-RPC error %d", want.key, c.Status, c.Body.Error, c.RawBody, want.code)
		}
	}
}

// TestMCPInspectorCLI drives the server with the current MCP Inspector's
// CLI, as a developer trying the server would: the tool list passes its
// strict portability check, and a tool's answer and its errors (an unknown
// code, a payment offer) come out with their text.
func TestMCPInspectorCLI(t *testing.T) {
	bin := nodeFor(t, mcpClientDir, "the MCP Inspector test", "@modelcontextprotocol/inspector")
	url := serve(t)
	inspect := func(args ...string) (map[string]any, error) {
		t.Helper()
		out, err := runNode(t, bin, mcpClientDir, url, append([]string{"node_modules/.bin/mcp-inspector", "--cli", url + "/mcp"}, args...)...)
		var v map[string]any
		if jerr := json.Unmarshal([]byte(out), &v); jerr != nil {
			t.Fatalf("inspector %v: output is not JSON (%v): %.500s (%v)", args, jerr, out, err)
		}
		return v, err
	}
	text := func(res map[string]any) string {
		var b strings.Builder
		content, _ := res["content"].([]any)
		for _, c := range content {
			if m, ok := c.(map[string]any); ok && m["type"] == "text" {
				b.WriteString(fmt.Sprint(m["text"]) + "\n")
			}
		}
		return b.String()
	}

	// --strict exits 6 on an error-severity portability problem of a tool's schemas.
	list, err := inspect("--method", "tools/list", "--strict")
	if err != nil {
		t.Fatalf("tools/list --strict: %v", err)
	}
	if tools, _ := list["tools"].([]any); len(tools) != 3 {
		t.Errorf("tools/list: %d tools, want 3", len(tools))
	}

	res, err := inspect("--method", "tools/call", "--tool-name", "check_entry_requirements", "--tool-arg", "passport=Germany", "--tool-arg", "destination=THA")
	sc, _ := res["structuredContent"].(map[string]any)
	if err != nil || res["isError"] == true || sc["requirement"] == nil || !strings.Contains(text(res), "Passport of Germany (DEU) to Thailand (THA)") {
		t.Errorf("check: %v, isError %v, requirement %v, text %.200q", err, res["isError"], sc["requirement"], text(res))
	}

	// A tool error is shown with its text; the CLI exits 5 for isError.
	res, err = inspect("--method", "tools/call", "--tool-name", "check_entry_requirements", "--tool-arg", "passport=GER", "--tool-arg", "destination=THA")
	if exitCode(err) != 5 || res["isError"] != true || !strings.Contains(text(res), "Did you mean DEU (Germany)?") {
		t.Errorf("unknown code: exit %d, isError %v, text %q", exitCode(err), res["isError"], text(res))
	}

	trip, err := os.ReadFile("../internal/evaluation/testdata/trips/dual-passport.json")
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(trip, &body); err != nil {
		t.Fatal(err)
	}
	res, err = inspect("--method", "tools/call", "--tool-name", "evaluate_trip", "--tool-arg", "traveler="+string(body["traveler"]), "--tool-arg", "trip="+string(body["trip"]))
	sc, _ = res["structuredContent"].(map[string]any)
	if exitCode(err) != 5 || res["isError"] != true || sc["code"] != "payment_required" || sc["x402Version"] != float64(2) || !strings.Contains(text(res), "atomic units of USDC") {
		t.Errorf("unpaid trip: exit %d, isError %v, structured %v, text %q", exitCode(err), res["isError"], sc, text(res))
	}
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
