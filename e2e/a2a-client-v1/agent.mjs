// agent.mjs calls every skill of EntryCheck's A2A endpoint with the official
// A2A JavaScript SDK's 1.x line (@a2a-js/sdk 1.3.0, which speaks A2A 1.0
// natively) through the SDK's opt-in v0.3 compatibility layer, since the
// endpoint speaks A2A 0.3.0: the card resolver and the JSON-RPC transport
// factory are built with legacyCompat enabled, so the resolver reads the
// v0.3 agent card (isLegacyAgentCard / parseLegacyAgentCard) and the
// factory picks the SDK's v0.3 JSON-RPC transport (LegacyJsonRpcTransport)
// for the card's interface. It pays the paid skills with the official x402
// client (@x402/core + @x402/evm). The steps and the JSON line it prints
// are those of ../a2a-client/steps.mjs, which the 0.3.x client shares.
//
// Environment:
//   BASE_URL     the service, e.g. http://127.0.0.1:8080 (required)
//   PRIVATE_KEY  the payer's key (optional; defaults to the public test key
//                of ../x402-client/pay.mjs)
//
// Nothing but BASE_URL is ever contacted. Exits non-zero on any failure.

import { randomUUID } from "node:crypto";
import { Role, taskStateToJSON } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  ServiceParameters,
  withA2AExtensions,
} from "@a2a-js/sdk/client";
import { isLegacyAgentCard } from "@a2a-js/sdk/compat/v0_3/client";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { toClientEvmSigner } from "@x402/evm";
import { privateKeyToAccount } from "viem/accounts";
import { run, X402_EXTENSION } from "../a2a-client/steps.mjs";

// withA2AExtensions names the 1.0 header (A2A-Extensions); the client
// sends it as X-A2A-Extensions, the 0.3 spelling, on a v0.3 transport.
const withX402 = { serviceParameters: ServiceParameters.create(withA2AExtensions(X402_EXTENSION)) };

// state spells a 1.0 task state as A2A 0.3 does: TASK_STATE_INPUT_REQUIRED
// is "input-required".
const state = (s) => taskStateToJSON(s).replace(/^TASK_STATE_/, "").toLowerCase().replaceAll("_", "-");

// connect resolves the agent card through the v0.3 compatibility layer and
// checks that the client it builds talks A2A 0.3 over JSON-RPC.
async function connect(baseURL) {
  const legacyCompat = { enabled: true };
  const resolver = new DefaultAgentCardResolver({ legacyCompat });

  // The card as served must be the v0.3 shape the layer translates.
  const res = await fetch(new URL("/.well-known/agent-card.json", baseURL));
  if (!res.ok) throw new Error(`agent card: HTTP ${res.status}`);
  if (!isLegacyAgentCard(await res.json())) throw new Error("the agent card is not recognised as an A2A 0.3 card");

  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    cardResolver: resolver,
    transports: [new JsonRpcTransportFactory({ legacyCompat })],
  }));
  const client = await factory.createFromUrl(baseURL);
  const transport = client.transport;
  if (transport.protocolName !== "JSONRPC" || !client.protocolVersion.startsWith("0.3")) {
    throw new Error(`the client chose ${transport.constructor.name} (${transport.protocolName} ${client.protocolVersion}), not the v0.3 JSON-RPC transport`);
  }
  const card = await client.getAgentCard();
  const iface = card.supportedInterfaces[0];

  // send sends one message/send with a data part and returns the task.
  const send = async (data, { taskId, metadata, x402 } = {}) => {
    const message = {
      messageId: randomUUID(),
      role: Role.ROLE_USER,
      parts: [{ content: { $case: "data", value: data }, metadata: undefined, filename: "", mediaType: "" }],
      taskId: taskId ?? "",
      contextId: "",
      metadata,
      extensions: [],
      referenceTaskIds: [],
    };
    const result = await client.sendMessage({ tenant: "", message, configuration: undefined, metadata: undefined }, x402 ? withX402 : undefined);
    if (!("status" in result)) throw new Error(`message/send answered a message, not a task: ${JSON.stringify(result)}`);
    const content = result.artifacts?.[0]?.parts?.[0]?.content;
    return {
      id: result.id,
      state: state(result.status.state),
      text: (result.status.message?.parts ?? []).filter((p) => p.content?.$case === "text").map((p) => p.content.value).join(" "),
      metadata: result.status.message?.metadata,
      artifacts: (result.artifacts ?? []).length,
      answer: content?.$case === "data" ? content.value : undefined,
    };
  };

  return {
    card: {
      url: iface.url,
      preferredTransport: iface.protocolBinding,
      protocolVersion: iface.protocolVersion,
      skills: card.skills.map((s) => s.id),
      extensions: (card.capabilities?.extensions ?? []).map((e) => e.uri),
    },
    send,
  };
}

run({ script: "agent.mjs", connect, x402: { x402Client, ExactEvmScheme, toClientEvmSigner, privateKeyToAccount } });
