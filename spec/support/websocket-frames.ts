import type WebSocket from 'ws';

/**
 * The text of the first frame the gateway sends that answers the request frame `id` (each answer
 * names the id it answers), listened for before the request is sent by the caller.
 */
export function answerTo(ws: WebSocket, id: string): Promise<string> {
  return new Promise<string>((resolve) => {
    const on = (data: WebSocket.RawData) => {
      const text = String(data);
      if (!text.includes(`"${id}"`)) return;
      ws.off('message', on);
      resolve(text);
    };
    ws.on('message', on);
  });
}
