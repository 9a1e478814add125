import { Module } from '@nestjs/common';
import { ItemsModule } from '../items/items.module.js';
import { TemplatesModule } from '../templates/templates.module.js';
import { OnboardingController } from './onboarding.controller.js';
import { OnboardingService } from './onboarding.service.js';

@Module({ imports: [ItemsModule, TemplatesModule], controllers: [OnboardingController], providers: [OnboardingService] })
export class OnboardingModule {}
