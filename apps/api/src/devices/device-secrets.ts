import { Injectable } from '@nestjs/common';
import { deriveStartingCode, generateSecretKey, isValidSecretKey, isValidStartingCode } from '@kidogo/openpaygo';
import { SecretBox } from '../common/crypto.js';

export interface DeviceSecret {
  secretKey: string;
  startingCode: number;
}

/**
 * A device's OpenPAYGO factory data (secret key and starting code), sealed
 * with AES-GCM before it touches the database. Only the token service opens
 * it; no reply shape carries it.
 */
@Injectable()
export class DeviceSecrets {
  constructor(private readonly box: SecretBox) {}

  /** The factory data as given, or a new random key and the starting code the standard derives from it. */
  create(given: { secret_key?: string | null; starting_code?: number | null } = {}): DeviceSecret {
    const secretKey = given.secret_key ? given.secret_key.toLowerCase() : generateSecretKey();
    if (!isValidSecretKey(secretKey)) throw new Error('secret_key must be 32 hexadecimal characters');
    const startingCode = given.starting_code ?? deriveStartingCode(secretKey);
    if (!isValidStartingCode(startingCode)) throw new Error('starting_code must be a 9-digit number');
    return { secretKey, startingCode };
  }

  seal(secret: DeviceSecret): { secret_key_enc: string; starting_code_enc: string } {
    return {
      secret_key_enc: this.box.seal(secret.secretKey),
      starting_code_enc: this.box.seal(String(secret.startingCode)),
    };
  }

  open(row: { secret_key_enc: string; starting_code_enc: string }): DeviceSecret {
    return { secretKey: this.box.open(row.secret_key_enc), startingCode: Number(this.box.open(row.starting_code_enc)) };
  }
}
