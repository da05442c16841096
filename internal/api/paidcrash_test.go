package api_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/faultpoint"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// TestPaidAnswerSurvivesACrash: the service is killed (SIGKILL) once a
// payment is settled and before its answer is written, so the payer has
// paid and got nothing. Restarted on the same database, it answers the
// client's retry of the same payment with the original receipt, and the
// facilitator sees no second settlement.
func TestPaidAnswerSurvivesACrash(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the service binary")
	}
	bin := buildWithFaults(t)
	fake := &fakeFacilitator{valid: true}
	facilitator := httptest.NewServer(fake)
	defer facilitator.Close()
	dir := t.TempDir()
	addr := freeAddr(t)
	base := "http://" + addr

	crashing := serveBinary(t, bin, addr, dir, facilitator.URL, faultpoint.AfterSettlement)
	offer := offerAt(t, base+checkPath)
	key := mustKey(t)
	signature := header(t, newPayment(t, key, offer.Accepts[0], time.Now()).sign(t, key))
	if r, err := paidGet(base+checkPath, signature); err == nil {
		t.Fatalf("the service answered %d instead of crashing after the settlement", r.StatusCode)
	}
	if err := crashing.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the service ended with %v, want killed at the fault point", err)
	}
	if got := fake.seen(); got != "/verify /settle" {
		t.Fatalf("facilitator calls %q before the crash, want one settlement", got)
	}

	restarted := serveBinary(t, bin, addr, dir, facilitator.URL, "")
	defer restarted.Process.Kill()
	r, err := paidGet(base+checkPath, signature)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		t.Fatalf("the retry after the crash: %d, want 200", r.StatusCode)
	}
	var receipt x402.SettlementResponse
	if err := x402.Decode(r.Header.Get(x402.HeaderPaymentResponse), &receipt); err != nil || !receipt.Success ||
		receipt.Transaction != "0xabc" || receipt.Payer != crypto.PubkeyToAddress(key.PublicKey).Hex() {
		t.Errorf("the retry's receipt %+v (%v), want the settlement's", receipt, err)
	}
	if got := fake.seen(); got != "/verify /settle" {
		t.Errorf("facilitator calls %q after the retry, want the one settlement only", got)
	}
}

// buildWithFaults builds the service with its fault points armed.
func buildWithFaults(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "entrycheck")
	cmd := exec.Command("go", "build", "-tags", "faultinject", "-o", bin, "github.com/entrycheck/entrycheck/cmd/entrycheck")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the service with fault points: %v\n%s", err, out)
	}
	return bin
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// serveBinary starts bin serving on addr with a local facilitator at
// facilitatorURL and its database in dir, crashing at fault (none when
// empty), and waits until it answers.
func serveBinary(t *testing.T, bin, addr, dir, facilitatorURL, fault string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", addr, "--base-url", "http://"+addr, "--public", dir,
		"--db", filepath.Join(dir, "entrycheck.db"), "--verify-at", "off", "--pay-to", payTo, "--facilitator", facilitatorURL)
	cmd.Env = append(os.Environ(),
		"ENTRYCHECK_DATA="+datatest.MatrixDir(t, datatest.Current), "ENTRYCHECK_GEO="+datatest.GeoDir(t),
		"ENTRYCHECK_IP_HASH_KEY=the tests' key, of at least thirty-two characters", "ENTRYCHECK_FAULT="+fault)
	logs, err := os.Create(filepath.Join(dir, "serve-"+fault+".log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logs.Close() })
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGKILL) })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for ctx.Err() == nil {
		if r, err := http.Get("http://" + addr + "/healthz"); err == nil {
			r.Body.Close()
			return cmd
		}
		time.Sleep(100 * time.Millisecond)
	}
	b, _ := os.ReadFile(logs.Name())
	t.Fatalf("the service did not answer within a minute:\n%s", b)
	return nil
}

// offerAt asks for url without paying and decodes its x402 offer.
func offerAt(t *testing.T, url string) x402.PaymentRequired {
	t.Helper()
	r, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	var offer x402.PaymentRequired
	if r.StatusCode != http.StatusPaymentRequired || x402.Decode(r.Header.Get(x402.HeaderPaymentRequired), &offer) != nil || len(offer.Accepts) == 0 {
		t.Fatalf("%s without payment: %d, want the 402 offer", url, r.StatusCode)
	}
	return offer
}

func paidGet(url, signature string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set(x402.HeaderPaymentSignature, signature)
	return http.DefaultClient.Do(req)
}
