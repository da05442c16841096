package e2e_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/entrycheck/entrycheck/internal/browsertest"
)

// testKey is the public test key of pay.mjs (Hardhat/Anvil account #1,
// testPayer; no funds anywhere).
const testKey = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"

// browserPayer is the page's script: the official x402 client, as a site
// would bundle it, paying with a viem local account. pay(url) resolves to
// what the page could read of the answer, as JSON.
const browserPayer = `
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { toClientEvmSigner } from "@x402/evm";
import { privateKeyToAccount } from "viem/accounts";

window.pay = async (url, key) => {
  const account = privateKeyToAccount(key);
  const client = new x402Client().register("eip155:8453", new ExactEvmScheme(toClientEvmSigner(account)));
  const res = await wrapFetchWithPayment(fetch, client)(url, { headers: { Accept: "application/json" } });
  const body = await res.json();
  const receipt = res.headers.get("PAYMENT-RESPONSE");
  return JSON.stringify({
    status: res.status,
    requirement: body.requirement,
    receipt: receipt ? decodePaymentResponseHeader(receipt) : null,
  });
};
`

// bundle builds browserPayer for the browser with the packages installed
// in clientDir.
func bundle(t *testing.T) []byte {
	t.Helper()
	dir, err := filepath.Abs(clientDir)
	if err != nil {
		t.Fatal(err)
	}
	res := api.Build(api.BuildOptions{
		Stdin:    &api.StdinOptions{Contents: browserPayer, ResolveDir: dir, Sourcefile: "payer.js"},
		Bundle:   true,
		Format:   api.FormatIIFE,
		Target:   api.ES2020,
		Platform: api.PlatformBrowser,
		LogLevel: api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		var msgs []string
		for _, m := range res.Errors {
			msgs = append(msgs, m.Text)
		}
		t.Fatalf("bundling the x402 client: %s", strings.Join(msgs, "; "))
	}
	return res.OutputFiles[0].Contents
}

// TestBrowserPageOnAnotherSitePays: a page on another origin pays for a
// check with the official x402 client bundled for the browser, and reads
// the answer and its receipt. It needs the paid routes' CORS: the
// preflight of PAYMENT-SIGNATURE, and PAYMENT-REQUIRED and
// PAYMENT-RESPONSE exposed.
func TestBrowserPageOnAnotherSitePays(t *testing.T) {
	node(t) // the packages the bundle is made of
	ctx := browsertest.Start(t)
	service := serve(t)
	script := bundle(t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/payer.js" {
			w.Header().Set("Content-Type", "text/javascript")
			w.Write(script)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>shop</title><script src="/payer.js"></script>`)
	}))
	defer site.Close()

	if _, err := chromedp.Run(ctx, chromedp.Navigate(site.URL+"/")); err != nil {
		t.Fatal(err)
	}
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		fmt.Sprintf(`pay(%q, %q)`, service+"/v1/check?passport=DEU&destination=THA", testKey), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("paying from %s: %v", site.URL, err)
	}
	var got struct {
		Status      int
		Requirement string
		Receipt     struct {
			Success bool
			Payer   string
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Status != http.StatusOK || got.Requirement != "visa_free" || !got.Receipt.Success || !strings.EqualFold(got.Receipt.Payer, testPayer) {
		t.Errorf("the page read %s", out)
	}
}
