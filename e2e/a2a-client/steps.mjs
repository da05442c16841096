// steps.mjs holds the steps that agent.mjs (the A2A JavaScript SDK's 0.3.x
// line) and ../a2a-client-v1/agent.mjs (its 1.x line, through its v0.3
// compatibility layer) share: guard the network, read the agent card, call
// every skill, pay the paid skills with the official x402 client (exact
// scheme, EIP-3009 on Base) as x402's A2A transport specifies, send a
// payment again, and print one JSON line:
//
//   {"card":{...},"dataset":{...},"check":{...},"paid_check":{...},
//    "passport":{...},"trip":{...},"retry":{...},"replay":{...},"payer":"0x..."}
//
// Each skill's entry holds the task's final state, its x402 metadata and
// the data of its answer artifact, for the Go test to compare with the
// REST answers. "retry" submits the paid check's payment again in a new
// task for the same check, as a client that lost the answer does: it is
// answered again with the same receipt. "replay" submits it for another
// check, which must fail with nothing served.
//
// It imports no package itself: each client hands it the x402 client and
// viem from its own node_modules, so each folder runs on what its own
// package-lock.json pins.
//
// Environment:
//   BASE_URL     the service, e.g. http://127.0.0.1:8080 (required)
//   PRIVATE_KEY  the payer's key (optional; defaults to the public test key
//                of ../x402-client/pay.mjs)
//
// Nothing but BASE_URL is ever contacted. Exits non-zero on any failure.

// PUBLIC TEST KEY — Hardhat/Anvil default account #1 (see
// ../x402-client/pay.mjs). It holds no funds on any real network.
const TEST_PRIVATE_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

// The x402 A2A extension, as x402's transports-v2/a2a.md declares it.
export const X402_EXTENSION = "https://github.com/google-a2a/a2a-x402/v0.1";
const NETWORK = "eip155:8453";

// summary is what the Go test reads of a task. A task is given in the
// shape every client's connect returns: {id, state, text, metadata,
// artifacts, answer}, with the state spelt as in A2A 0.3 ("completed").
function summary(task) {
  const meta = task.metadata ?? {};
  const out = {
    state: task.state,
    text: task.text,
    payment_status: meta["x402.payment.status"],
    payment_error: meta["x402.payment.error"],
    receipts: meta["x402.payment.receipts"],
    artifacts: task.artifacts,
  };
  if (task.answer !== undefined) out.answer = task.answer;
  return out;
}

// pay runs a paid skill: the offer (input-required), the payment signed by
// the x402 client, submitted in the same task; it returns the offer's and
// the final task's summaries and the payload sent.
async function pay(send, payer, data) {
  const offered = await send(data, { x402: true });
  const meta = offered.metadata ?? {};
  if (offered.state !== "input-required" || meta["x402.payment.status"] !== "payment-required") {
    throw new Error(`${data.skill}: no payment offer: ${JSON.stringify(summary(offered))}`);
  }
  const payload = await payer.createPaymentPayload(meta["x402.payment.required"]);
  const done = await send({}, {
    taskId: offered.id,
    x402: true,
    metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": payload },
  });
  return { offer: meta["x402.payment.required"], offer_state: offered.state, ...summary(done), payload };
}

// run runs every step. script names the calling script in errors; connect
// (baseURL) resolves the agent card with the client's SDK and
// returns {card, send}: card is {url, preferredTransport, protocolVersion,
// skills, extensions} as the SDK read it, and send(data, {taskId, metadata,
// x402}) sends one message/send with a data part (activating the x402
// extension when x402 is set) and returns the task. x402 holds the x402
// client's x402Client, ExactEvmScheme and toClientEvmSigner and viem's
// privateKeyToAccount.
export function run({ script, connect, x402 }) {
  const fail = (message) => {
    process.stderr.write(`${script}: ${message}\n`);
    process.exit(1);
  };
  const baseURL = process.env.BASE_URL;
  if (!baseURL) fail(`BASE_URL is required (e.g. BASE_URL=http://127.0.0.1:8080 node ${script})`);
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

  const main = async () => {
    const { card, send } = await connect(baseURL);
    if (!card.extensions.includes(X402_EXTENSION)) {
      throw new Error(`the agent card does not declare ${X402_EXTENSION}`);
    }

    const account = x402.privateKeyToAccount(process.env.PRIVATE_KEY || TEST_PRIVATE_KEY);
    const payer = new x402.x402Client().register(NETWORK, new x402.ExactEvmScheme(x402.toClientEvmSigner(account)));

    const out = {
      card: { url: card.url, preferredTransport: card.preferredTransport, protocolVersion: card.protocolVersion, skills: card.skills },
      payer: account.address,
    };
    out.dataset = summary(await send({ skill: "dataset-info" }));
    out.check = summary(await send({ skill: "check", passport: "DEU", destination: "THA" }));
    const paidCheck = await pay(send, payer, { skill: "paid-check", passport: "DEU", destination: "THA" });
    out.passport = await pay(send, payer, { skill: "passport-matrix", passport: "DEU" });
    out.trip = await pay(send, payer, {
      skill: "evaluate-trip",
      traveler: { passports: ["USA"] },
      trip: { legs: [{ country: "FRA", arrival: "2027-04-01", departure: "2027-04-10" }] },
    });
    delete out.passport.payload;
    delete out.trip.payload;

    // The paid check's payment again, in a new task for the same answer,
    // then in a task for another answer.
    const submitAgain = async (data) => {
      const task = await send(data, { x402: true });
      return summary(await send({}, {
        taskId: task.id,
        x402: true,
        metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": paidCheck.payload },
      }));
    };
    out.retry = await submitAgain({ skill: "paid-check", passport: "DEU", destination: "THA" });
    out.replay = await submitAgain({ skill: "paid-check", passport: "DEU", destination: "FRA" });
    delete paidCheck.payload;
    out.paid_check = paidCheck;
    process.stdout.write(JSON.stringify(out) + "\n");
  };
  main().catch((err) => fail(err && err.stack ? err.stack : String(err)));
}
