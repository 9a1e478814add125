import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { OrganizationsController } from './organizations.controller.js';
import { AdminUsersController } from './admin-users.controller.js';
import { PlatformController } from './platform.controller.js';
import { OrganizationsService } from './organizations.service.js';
import { PlatformService } from './platform.service.js';

/** The super-admin console: every route here needs the super_admin role. */
@Module({
  imports: [UsersModule, NotificationsModule],
  controllers: [OrganizationsController, AdminUsersController, PlatformController],
  providers: [OrganizationsService, PlatformService],
  exports: [PlatformService],
})
export class AdminModule {}
