/** The part of @msimerson/stun (plain JavaScript, no types of its own) the TURN client uses. */
declare module '@msimerson/stun' {
  type Attribute = { type: number; value: unknown };
  type Message = {
    readonly type: number;
    readonly transactionId: Buffer;
    getAttribute(type: number): Attribute | undefined;
  };
  type Request = Message & {
    addAttribute(type: number, ...value: unknown[]): Attribute | undefined;
    addUsername(username: string): Attribute | undefined;
    addRealm(realm: string): Attribute | undefined;
    addNonce(nonce: string): Attribute | undefined;
    addMessageIntegrity(key: Buffer | string): boolean;
    addFingerprint(): boolean;
    toBuffer(): Buffer;
  };
  const stun: {
    createMessage(type: number): Request;
    decode(buffer: Buffer): Message;
    constants: Record<string, number>;
  };
  export default stun;
}
