import { Observable } from 'rxjs';
import { credentialChangedMessage } from './messages.js';
import type { StreamMessage } from './transports/index.js';

/**
 * A scoped credential's stream lives only as long as the credential it was authorized with: when
 * that credential is changed (its rights, its field rules) or deleted, on any node, the stream ends
 * with a final message, and the client's reconnection is authorized again. `changes`: the usernames
 * whose credentials changed (Authenticator.credentialChanges). The admin's streams are not bound.
 */
export function boundToCredential(messages: Observable<StreamMessage>, changes: Observable<string> | undefined, username: string | undefined): Observable<StreamMessage> {
  if (!changes || username === undefined) return messages;
  return new Observable<StreamMessage>((subscriber) => {
    let done = false;
    const watch = changes.subscribe((changed) => {
      if (done || changed !== username) return;
      done = true;
      stream.unsubscribe();
      subscriber.next(credentialChangedMessage());
      subscriber.complete();
    });
    const stream = messages.subscribe({
      next: (m) => subscriber.next(m),
      error: (err) => subscriber.error(err),
      complete: () => {
        done = true;
        subscriber.complete();
      },
    });
    if (done) stream.unsubscribe();
    return () => {
      watch.unsubscribe();
      stream.unsubscribe();
    };
  });
}
