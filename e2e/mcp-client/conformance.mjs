// Calls every tool of EntryCheck's MCP server, on its success and error
// paths, with the official MCP TypeScript SDK client, which validates each
// result's structuredContent against the tool's outputSchema (errors
// included), and sends raw JSON-RPC that a server must refuse with the
// right error code. It prints one JSON line per case and leaves the
// judging to e2e/mcp_test.go.
//
//   BASE_URL=http://127.0.0.1:8080 node conformance.mjs
import { readFile } from "node:fs/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const base = process.env.BASE_URL;
if (!base) {
  console.error("BASE_URL is required, e.g. BASE_URL=http://127.0.0.1:8080");
  process.exit(2);
}
const endpoint = new URL("/mcp", base);
const trip = JSON.parse(await readFile(new URL("../../internal/evaluation/testdata/trips/dual-passport.json", import.meta.url), "utf8"));

const sdkVersion = JSON.parse(await readFile(new URL("./node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url), "utf8")).version;
const client = new Client({ name: "entrycheck-conformance", version: "0.0.0" });
await client.connect(new StreamableHTTPClientTransport(endpoint));
// The SDK validates structuredContent only for tools it has listed.
const { tools } = await client.listTools();
report({ case: "tools/list", sdk: sdkVersion, tools: tools.map((t) => t.name) });

const checks = [
  ["check_entry_requirements", "answer", { passport: "DEU", destination: "THA" }],
  ["check_entry_requirements", "invalid_code", { passport: "GER", destination: "THA" }],
  ["evaluate_trip", "payment_required", trip],
  ["evaluate_trip", "invalid_trip", { trip: { legs: [] } }],
  ["get_dataset_info", "answer", {}],
  ["get_dataset_info", "unknown_argument", { verbose: true }],
];
for (const [tool, name, args] of checks) {
  await call(tool, name, args);
}
// The anonymous daily quota: answers until it is spent, then the refusal.
for (let i = 0; i < 100; i++) {
  const r = await call("check_entry_requirements", "until_rate_limited", { passport: "Germany", destination: "Thailand" }, true);
  if (r.isError || r.threw) {
    await call("check_entry_requirements", "rate_limited", { passport: "DEU", destination: "THA" });
    break;
  }
}

// Raw JSON-RPC within the SDK's session: an unknown method and bad JSON.
const { sessionId: session, protocolVersion } = client.transport;
await raw("unknown_method", JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/frobnicate", params: {} }));
await raw("parse_error", '{"jsonrpc": "2.0", "id": 8, "method": ');
await client.close();

async function call(tool, name, args, quiet = false) {
  const out = { case: name, tool };
  try {
    const res = await client.callTool({ name: tool, arguments: args });
    out.isError = res.isError === true;
    out.text = (res.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
    out.structured = res.structuredContent ?? null;
  } catch (err) {
    out.threw = `${err.code ?? ""} ${err.message}`.trim();
  }
  if (!quiet || out.threw) {
    report(out);
  }
  return out;
}

async function raw(name, body) {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "Mcp-Session-Id": session ?? "",
      "Mcp-Protocol-Version": protocolVersion ?? "",
    },
    body,
  });
  const text = await res.text();
  let parsed = null;
  // A JSON-RPC answer may come as JSON or as one server-sent event.
  const data = text.startsWith("{") ? text : text.split("\n").find((l) => l.startsWith("data:"))?.slice(5);
  try {
    parsed = JSON.parse(data ?? "");
  } catch {
    // left null: the Go test reports the body
  }
  report({ case: name, status: res.status, contentType: res.headers.get("content-type"), body: parsed, rawBody: parsed ? undefined : text.slice(0, 300) });
}

function report(v) {
  console.log(JSON.stringify(v));
}
