import { createHash } from 'node:crypto';
import { createSocket } from 'node:dgram';
import stun from '@msimerson/stun';

/**
 * A TURN Allocate over UDP (RFC 8656 §7.1), the first thing a browser asks a relay for, with
 * long-term credentials: the first request draws the server's 401 with its realm and nonce,
 * the second carries USERNAME, REALM, NONCE and MESSAGE-INTEGRITY keyed by
 * MD5(username:realm:password). Messages are built and read by @msimerson/stun.
 */
const C = stun.constants;
const UDP = 17;

export type AllocateResult =
  | { ok: true; relayed: { address: string; port: number } }
  | { ok: false; code: number; reason: string };

type Decoded = ReturnType<typeof stun.decode>;

/**
 * A UDP client socket; one per allocation, since the server keys its nonce to the client's
 * address. One request, one answer (the server answers each; loopback drops nothing).
 */
function client(host: string, port: number, timeoutMs = 3000) {
  const socket = createSocket('udp4');
  return {
    ask(request: Buffer): Promise<Decoded> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no answer from ${host}:${port}`)),
          timeoutMs,
        );
        socket.once('error', reject);
        socket.once('message', (data) => {
          clearTimeout(timer);
          resolve(stun.decode(data));
        });
        socket.send(request, port, host);
      });
    },
    close: () => socket.close(),
  };
}

function allocateRequest(): ReturnType<typeof stun.createMessage> {
  const message = stun.createMessage(C.STUN_ALLOCATE_REQUEST!);
  message.addAttribute(C.STUN_ATTR_REQUESTED_TRANSPORT!, UDP << 24);
  return message;
}

function failure(message: Decoded): AllocateResult {
  const error = message.getAttribute(C.STUN_ATTR_ERROR_CODE!)?.value as
    { code: number; reason: string } | undefined;
  // coturn ends its reason phrases with a NUL.
  return { ok: false, code: error?.code ?? 0, reason: (error?.reason ?? '').replace(/\0+$/, '') };
}

/** Whether the server at `host:port` answers a STUN Binding request (it is up). */
export async function stunBinding(host: string, port: number, timeoutMs = 300): Promise<boolean> {
  const udp = client(host, port, timeoutMs);
  try {
    const answer = await udp.ask(stun.createMessage(C.STUN_BINDING_REQUEST!).toBuffer());
    return answer.type === C.STUN_BINDING_RESPONSE;
  } catch {
    return false;
  } finally {
    udp.close();
  }
}

/** Asks the relay for an allocation with these credentials. */
export async function turnAllocate(
  host: string,
  port: number,
  credentials: { username: string; credential: string },
): Promise<AllocateResult> {
  const udp = client(host, port);
  try {
    return await allocate(udp, credentials);
  } finally {
    udp.close();
  }
}

async function allocate(
  udp: ReturnType<typeof client>,
  credentials: { username: string; credential: string },
): Promise<AllocateResult> {
  const challenge = await udp.ask(allocateRequest().toBuffer());
  if (challenge.type === C.STUN_ALLOCATE_RESPONSE) throw new Error('allocated without credentials');
  // Byte-string attributes arrive as Buffers.
  const text = (type: number) =>
    (challenge.getAttribute(type)?.value as Buffer | undefined)?.toString('utf8');
  const realm = text(C.STUN_ATTR_REALM!);
  const nonce = text(C.STUN_ATTR_NONCE!);
  if (realm === undefined || nonce === undefined) return failure(challenge);

  const request = allocateRequest();
  request.addUsername(credentials.username);
  request.addRealm(realm);
  request.addNonce(nonce);
  request.addMessageIntegrity(
    createHash('md5').update(`${credentials.username}:${realm}:${credentials.credential}`).digest(),
  );
  const answer = await udp.ask(request.toBuffer());
  if (answer.type !== C.STUN_ALLOCATE_RESPONSE) return failure(answer);
  const relayed = answer.getAttribute(C.STUN_ATTR_XOR_RELAYED_ADDRESS!)?.value as {
    address: string;
    port: number;
  };
  return { ok: true, relayed: { address: relayed.address, port: relayed.port } };
}
