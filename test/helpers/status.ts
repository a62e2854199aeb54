// A request whose answer is checked by its status only. Its body is still read to the end: undici stops reading
// a socket while an answer's body waits unread beyond its buffer, so a large body left unread keeps that socket
// open (paused, the service's end of it long closed) and jest's worker cannot exit when the run ends.

/** The status of `url`'s answer, its body read and dropped. */
export async function statusOf(url: string | URL, init?: RequestInit): Promise<number> {
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return res.status;
}
