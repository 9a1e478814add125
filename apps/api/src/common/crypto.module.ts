import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { SecretBox } from './crypto.js';
import { DeviceSecrets } from '../devices/device-secrets.js';

@Global()
@Module({
  providers: [{ provide: SecretBox, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new SecretBox(c.encryptionKey) }, DeviceSecrets],
  exports: [SecretBox, DeviceSecrets],
})
export class CryptoModule {}
