import { expect, test } from '@playwright/test';

test('the API document renders in Swagger UI', async ({ page }) => {
  await page.goto('/payg/docs');
  await expect(page.getByText('Kidogo API').first()).toBeVisible();
  await expect(page.locator('.opblock').first()).toBeVisible();
});
