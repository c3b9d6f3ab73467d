import { expect, expectToast, test } from './helpers/web-fixtures';

test('help shows quick start, plans, FAQ and a working contact form', async ({ page }) => {
  await page.goto('/help');
  for (const heading of ['Quick start', 'Plan features', 'Frequently asked questions', 'Contact Us']) {
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
  }
  await expect(page.getByText('within 24 hours on business days')).toBeVisible();

  const form = page.getByRole('form', { name: 'Contact Us' });
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expectToast(page, 'Missing Information', 'Please fill in all fields');

  await form.getByLabel('Name').fill('Ada Lovelace');
  await form.getByLabel('Email').fill('ada@example.test');
  await form.getByLabel('Subject').fill('Export question');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expectToast(page, 'Missing Information', 'Please fill in all fields');

  await form.getByLabel('Message').fill('Can I export 24-bit WAV files?');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expectToast(page, 'Message Sent');
  // The form is cleared for the next message.
  await expect(form.getByLabel('Message')).toHaveValue('');
});
