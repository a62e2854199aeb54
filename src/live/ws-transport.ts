// What the WebSocket endpoint needs of the transport beside graphql-ws: close reasons within the protocol's limit.

/** A close reason within the protocol's 123 bytes. */
export function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}
