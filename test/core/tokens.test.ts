// Agent tokens: their shape, and the hash the store keeps in their place. The hash is what
// every store already holds, so it must never change: pinned to SHA-256 hex by known answers.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { generateToken, hashToken, looksLikeToken } from '../../src/core/tokens.ts';

void describe('agent tokens', () => {
  void it('hash to the SHA-256 hex of their UTF-8 text (known answers)', () => {
    assert.equal(hashToken('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(hashToken(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(
      hashToken('é'),
      createHash('sha256')
        .update(Buffer.from([0xc3, 0xa9]))
        .digest('hex'),
    );
  });

  void it('hash as a Hash object does, token after token', () => {
    for (let i = 0; i < 50; i++) {
      const token = generateToken();
      assert.equal(hashToken(token), createHash('sha256').update(token, 'utf8').digest('hex'));
    }
  });

  void it('are recognised by their shape, and only by it', () => {
    assert.ok(looksLikeToken(generateToken()));
    assert.ok(!looksLikeToken(`${generateToken()}x`));
    assert.ok(!looksLikeToken(generateToken().replace('wdn_', 'wdx_')));
    assert.ok(!looksLikeToken(''));
  });
});
