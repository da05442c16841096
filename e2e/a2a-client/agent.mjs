// agent.mjs calls every skill of EntryCheck's A2A endpoint with the official
// A2A JavaScript SDK (@a2a-js/sdk: the agent card resolver, the client
// factory and its JSON-RPC transport) and pays the paid skills with the
// official x402 client (@x402/core + @x402/evm, exact scheme, EIP-3009 on
// Base) as x402's A2A transport specifies. It prints one JSON line:
//
//   {"card":{...},"dataset":{...},"check":{...},"paid_check":{...},
//    "passport":{...},"trip":{...},"replay":{...},"payer":"0x..."}
//
// Each skill's entry holds the task's final state, its x402 metadata and
// the data of its answer artifact, for the Go test to compare with the
// REST answers. "replay" submits the paid check's payment again in a new
// task, which must fail with nothing served.
//
// Environment:
//   BASE_URL     the service, e.g. http://127.0.0.1:8080 (required)
//   PRIVATE_KEY  the payer's key (optional; defaults to the public test key
//                of ../x402-client/pay.mjs)
//
// Nothing but BASE_URL is ever contacted. Exits non-zero on any failure.

import { randomUUID } from "node:crypto";
import { ClientFactory, ServiceParameters, withA2AExtensions } from "@a2a-js/sdk/client";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { toClientEvmSigner } from "@x402/evm";
import { privateKeyToAccount } from "viem/accounts";

// PUBLIC TEST KEY — Hardhat/Anvil default account #1 (see
// ../x402-client/pay.mjs). It holds no funds on any real network.
const TEST_PRIVATE_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

// The x402 A2A extension, as x402's transports-v2/a2a.md declares it.
const X402_EXTENSION = "https://github.com/google-a2a/a2a-x402/v0.1";
const NETWORK = "eip155:8453";

function fail(message) {
  process.stderr.write(`agent.mjs: ${message}\n`);
  process.exit(1);
}

const baseURL = process.env.BASE_URL;
if (!baseURL) fail("BASE_URL is required (e.g. BASE_URL=http://127.0.0.1:8080 node agent.mjs)");
const origin = new URL(baseURL).origin;

// Only BASE_URL may be contacted, whatever a library might try.
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (new URL(url, baseURL).origin !== origin) {
    throw new Error(`refusing network access to ${url}: only ${origin} may be contacted`);
  }
  return realFetch(input, init);
};

const withX402 = { serviceParameters: ServiceParameters.create(withA2AExtensions(X402_EXTENSION)) };

// send sends one message/send with a data part and returns the task.
async function send(client, data, { taskId, metadata, x402 } = {}) {
  const message = { kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "data", data }] };
  if (taskId) message.taskId = taskId;
  if (metadata) message.metadata = metadata;
  const result = await client.sendMessage({ message }, x402 ? withX402 : undefined);
  if (result.kind !== "task") throw new Error(`message/send answered a ${result.kind}, not a task`);
  return result;
}

// summary is what the Go test reads of a task.
function summary(task) {
  const meta = task.status.message?.metadata ?? {};
  const out = {
    state: task.status.state,
    text: (task.status.message?.parts ?? []).filter((p) => p.kind === "text").map((p) => p.text).join(" "),
    payment_status: meta["x402.payment.status"],
    payment_error: meta["x402.payment.error"],
    receipts: meta["x402.payment.receipts"],
    artifacts: (task.artifacts ?? []).length,
  };
  const part = task.artifacts?.[0]?.parts?.[0];
  if (part?.kind === "data") out.answer = part.data;
  return out;
}

// pay runs a paid skill: the offer (input-required), the payment signed by
// the x402 client, submitted in the same task; it returns the offer's and
// the final task's summaries and the payload sent.
async function pay(client, payer, data) {
  const offered = await send(client, data, { x402: true });
  const meta = offered.status.message?.metadata ?? {};
  if (offered.status.state !== "input-required" || meta["x402.payment.status"] !== "payment-required") {
    throw new Error(`${data.skill}: no payment offer: ${JSON.stringify(summary(offered))}`);
  }
  const payload = await payer.createPaymentPayload(meta["x402.payment.required"]);
  const done = await send(client, {}, {
    taskId: offered.id,
    x402: true,
    metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": payload },
  });
  return { offer: meta["x402.payment.required"], offer_state: offered.status.state, ...summary(done), payload };
}

async function main() {
  const factory = new ClientFactory();
  const client = await factory.createFromUrl(baseURL);
  const card = await client.getAgentCard();
  if (!(card.capabilities?.extensions ?? []).some((e) => e.uri === X402_EXTENSION)) {
    throw new Error(`the agent card does not declare ${X402_EXTENSION}`);
  }

  const account = privateKeyToAccount(process.env.PRIVATE_KEY || TEST_PRIVATE_KEY);
  const payer = new x402Client().register(NETWORK, new ExactEvmScheme(toClientEvmSigner(account)));

  const out = {
    card: { url: card.url, preferredTransport: card.preferredTransport, protocolVersion: card.protocolVersion, skills: card.skills.map((s) => s.id) },
    payer: account.address,
  };
  out.dataset = summary(await send(client, { skill: "dataset-info" }));
  out.check = summary(await send(client, { skill: "check", passport: "DEU", destination: "THA" }));
  const paidCheck = await pay(client, payer, { skill: "paid-check", passport: "DEU", destination: "THA" });
  out.passport = await pay(client, payer, { skill: "passport-matrix", passport: "DEU" });
  out.trip = await pay(client, payer, {
    skill: "evaluate-trip",
    traveler: { passports: ["USA"] },
    trip: { legs: [{ country: "FRA", arrival: "2027-04-01", departure: "2027-04-10" }] },
  });
  delete out.passport.payload;
  delete out.trip.payload;

  // The paid check's payment again, in a new task for the same answer.
  const again = await send(client, { skill: "paid-check", passport: "DEU", destination: "THA" }, { x402: true });
  out.replay = summary(await send(client, {}, {
    taskId: again.id,
    x402: true,
    metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": paidCheck.payload },
  }));
  delete paidCheck.payload;
  out.paid_check = paidCheck;
  process.stdout.write(JSON.stringify(out) + "\n");
}

main().catch((err) => fail(err && err.stack ? err.stack : String(err)));
