// pay.mjs pays for one EntryCheck answer with the official x402 v2
// JavaScript client (@x402/fetch + @x402/evm, exact scheme, EIP-3009 on
// Base) and prints one JSON line:
//
//   {"status":200,"requirement":"visa_free","allowed_stay_days":60,
//    "payment_response":{...decoded PAYMENT-RESPONSE...},"payer":"0x..."}
//
// Environment:
//   BASE_URL     the service, e.g. http://127.0.0.1:8080 (required)
//   PRIVATE_KEY  the payer's key (optional; defaults to the public test key below)
//   CHECK_PATH   the request (optional; defaults to the DEU -> THA check)
//
// Nothing but BASE_URL is ever contacted: signing the EIP-712
// TransferWithAuthorization needs no RPC, the scheme is registered without an
// rpcUrl, and every fetch is refused unless it goes to BASE_URL's origin.
// Exits non-zero on any failure.

import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { toClientEvmSigner } from "@x402/evm";
import { privateKeyToAccount } from "viem/accounts";

// PUBLIC TEST KEY — Hardhat/Anvil default account #1, derived from the
// well-known "test test ... junk" mnemonic and published in their docs.
// Address 0x70997970C51812dc3A010C7d01b50e0d17dc79C8. It holds no funds on
// any real network; never send anything to it. Used only to sign payments
// for a local facilitator that moves no money.
export const TEST_PRIVATE_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

// Base mainnet, as offered by EntryCheck (x402 v2 CAIP-2 network id).
const NETWORK = "eip155:8453";

function fail(message) {
  process.stderr.write(`pay.mjs: ${message}\n`);
  process.exit(1);
}

const baseURL = process.env.BASE_URL;
if (!baseURL) fail("BASE_URL is required (e.g. BASE_URL=http://127.0.0.1:8080 node pay.mjs)");
let origin;
try {
  origin = new URL(baseURL).origin;
} catch (err) {
  fail(`BASE_URL ${JSON.stringify(baseURL)} is not a URL: ${err.message}`);
}
const path = process.env.CHECK_PATH || "/v1/check?passport=DEU&destination=THA";
const target = baseURL.replace(/\/+$/, "") + path;

// Only BASE_URL may be contacted, whatever a library might try.
const realFetch = globalThis.fetch;
async function guardedFetch(input, init) {
  const url = input instanceof Request ? input.url : String(input);
  if (new URL(url, baseURL).origin !== origin) {
    throw new Error(`refusing network access to ${url}: only ${origin} may be contacted`);
  }
  return realFetch(input, init);
}
globalThis.fetch = guardedFetch;

async function main() {
  const key = process.env.PRIVATE_KEY || TEST_PRIVATE_KEY;
  const account = privateKeyToAccount(key); // viem local account: signs in-process

  // x402 v2 client with the exact EVM scheme for Base; no rpcUrl, so no
  // extension enrichment can reach for a chain.
  const client = new x402Client().register(NETWORK, new ExactEvmScheme(toClientEvmSigner(account)));
  const fetchWithPayment = wrapFetchWithPayment(guardedFetch, client);

  const res = await fetchWithPayment(target, { method: "GET", headers: { Accept: "application/json" } });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`HTTP ${res.status}, body is not JSON: ${text.slice(0, 500)}`);
  }
  if (res.status !== 200) {
    const required = res.headers.get("PAYMENT-REQUIRED");
    throw new Error(`HTTP ${res.status}: ${text.slice(0, 1000)}${required ? ` (PAYMENT-REQUIRED: ${required})` : ""}`);
  }
  const header = res.headers.get("PAYMENT-RESPONSE");
  if (!header) throw new Error("HTTP 200 without a PAYMENT-RESPONSE header");
  const paymentResponse = decodePaymentResponseHeader(header);

  const out = {
    status: res.status,
    requirement: body.requirement,
    allowed_stay_days: body.allowed_stay_days,
    payment_response: paymentResponse,
    payer: account.address,
  };
  process.stdout.write(JSON.stringify(out) + "\n");
  if (!paymentResponse || paymentResponse.success !== true) {
    throw new Error("the payment was not settled successfully");
  }
}

main().catch((err) => fail(err && err.stack ? err.stack : String(err)));
