// agent.mjs calls every skill of EntryCheck's A2A endpoint with the official
// A2A JavaScript SDK's 0.3.x line (@a2a-js/sdk: the agent card resolver,
// the client factory and its JSON-RPC transport, all speaking A2A 0.3.0)
// and pays the paid skills with the official x402 client (@x402/core +
// @x402/evm). The steps and the JSON line it prints are those of
// steps.mjs, which ../a2a-client-v1/agent.mjs (the SDK's 1.x line) shares.
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
import { run, X402_EXTENSION } from "./steps.mjs";

const withX402 = { serviceParameters: ServiceParameters.create(withA2AExtensions(X402_EXTENSION)) };

// connect resolves the agent card with the client factory, which picks
// the card's preferred transport (JSON-RPC).
async function connect(baseURL) {
  const client = await new ClientFactory().createFromUrl(baseURL);
  const card = await client.getAgentCard();

  // send sends one message/send with a data part and returns the task.
  const send = async (data, { taskId, metadata, x402 } = {}) => {
    const message = { kind: "message", messageId: randomUUID(), role: "user", parts: [{ kind: "data", data }] };
    if (taskId) message.taskId = taskId;
    if (metadata) message.metadata = metadata;
    const result = await client.sendMessage({ message }, x402 ? withX402 : undefined);
    if (result.kind !== "task") throw new Error(`message/send answered a ${result.kind}, not a task`);
    const part = result.artifacts?.[0]?.parts?.[0];
    return {
      id: result.id,
      state: result.status.state,
      text: (result.status.message?.parts ?? []).filter((p) => p.kind === "text").map((p) => p.text).join(" "),
      metadata: result.status.message?.metadata,
      artifacts: (result.artifacts ?? []).length,
      answer: part?.kind === "data" ? part.data : undefined,
    };
  };

  return {
    card: {
      url: card.url,
      preferredTransport: card.preferredTransport,
      protocolVersion: card.protocolVersion,
      skills: card.skills.map((s) => s.id),
      extensions: (card.capabilities?.extensions ?? []).map((e) => e.uri),
    },
    send,
  };
}

run({ script: "agent.mjs", connect, x402: { x402Client, ExactEvmScheme, toClientEvmSigner, privateKeyToAccount } });
