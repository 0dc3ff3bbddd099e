/** What the network allows, found by gathering ICE candidates against the configured servers. */
export type ConnectionCheckResult =
  /** A TURN relay answered: the call will get through even a strict firewall. */
  | 'relay'
  /** A STUN server saw our public address: direct connections should work. */
  | 'direct'
  /** Servers are configured but none answered: the network blocks them. */
  | 'blocked'
  /** No servers configured: only the local network could be checked. */
  | 'local-only';

const GATHER_TIMEOUT_MS = 8000;

/**
 * Gathers candidates on a throwaway connection (a data channel gives it something to gather
 * for) and reports the best kind found; nothing is sent to anyone.
 */
export async function checkConnection(iceServers: RTCIceServer[]): Promise<ConnectionCheckResult> {
  const pc = new RTCPeerConnection({ iceServers });
  const types = new Set<string>();
  try {
    pc.createDataChannel('check');
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, GATHER_TIMEOUT_MS);
      pc.onicecandidate = ({ candidate }) => {
        if (candidate?.type) types.add(candidate.type);
        if (!candidate) {
          clearTimeout(timer);
          resolve();
        }
      };
    });
    await pc.setLocalDescription(await pc.createOffer());
    await done;
  } finally {
    pc.close();
  }
  if (types.has('relay')) return 'relay';
  if (types.has('srflx')) return 'direct';
  return iceServers.length > 0 ? 'blocked' : 'local-only';
}
