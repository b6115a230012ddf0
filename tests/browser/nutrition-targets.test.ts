import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { withServerAndBrowser } from '../helpers/browser-suite.js';
import { DESKTOP, PHONE } from '../helpers/browser.js';
import { seedFoods, TEST_FOODS } from '../helpers/foods.js';
import { expectPath, expectToast, screenshot, signedInPage, signInAsAdmin } from '../helpers/pages.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
withServerAndBrowser((s, b) => {
  server = s;
  browser = b;
});

describe('the targets panel on a client’s record', () => {
  it('at 1440 px a dietitian puts in the suggestion, changes it and saves; the client sees them, and then does not once numbers are hidden; at 375 px the panel fits', async () => {
    const dietitian = await server.user({ role: 'admin', firstName: 'Meera' });
    const client = await server.user({ firstName: 'Asha', heightM: 1.6, weightKg: 60 });

    const { page } = await signedInPage(browser, server, null, { viewport: DESKTOP });
    await signInAsAdmin(page, dietitian);
    await page.goto(`/admin/clients/${client.id}`);
    const panel = page.getByTestId('nutrition-targets');
    await expect.poll(() => panel.textContent(), { timeout: 15_000 }).toContain('No daily targets yet');
    await page.getByRole('button', { name: 'Set targets' }).click();

    const editor = page.getByTestId('targets-editor');
    // Height and weight come from the record; age, sex and activity the dietitian gives.
    await expect.poll(() => editor.getByLabel('Weight (kg)').inputValue(), { timeout: 10_000 }).toBe('60');
    expect(await editor.getByLabel('Height (cm)').inputValue()).toBe('160');
    await editor.getByRole('button', { name: 'Put in the suggestion' }).click();
    await expect.poll(() => editor.getByText('Age must be a number of years').isVisible()).toBe(true);
    await editor.getByLabel('Age (years)').fill('30');
    await editor.getByLabel('Sex').selectOption('female');
    await editor.getByLabel('Activity').selectOption('sedentary');
    await editor.getByRole('button', { name: 'Put in the suggestion' }).click();
    // 10×60 + 6.25×160 − 5×30 − 161 = 1289 at rest, × 1.2 = 1547 kcal; protein 0.83 g/kg = 49.8 g; iron at the woman's RDA.
    await expect.poll(() => editor.getByLabel('Energy (kcal a day)').inputValue()).toBe('1547');
    expect(await editor.getByLabel('Protein (g a day)').inputValue()).toBe('49.8');
    expect(await editor.getByLabel('Iron (mg a day)').inputValue()).toBe('29');
    expect(await editor.getByText('13 % of energy').count()).toBeGreaterThan(0);

    // The dietitian changes it: a little more protein, folate followed too.
    await editor.getByLabel('Protein (g a day)').fill('60');
    await editor.getByRole('checkbox', { name: 'Folate' }).check();
    expect(await editor.getByLabel('Folate (µg a day)').inputValue()).toBe('220');
    await editor.getByLabel('Fibre (g a day)').fill('-3');
    await editor.getByRole('button', { name: 'Save targets' }).click();
    await expect.poll(() => editor.getByText('Fibre target must be more than 0 g').isVisible()).toBe(true);
    await editor.getByLabel('Fibre (g a day)').fill('25');
    await screenshot(page, 'nutrition-targets-editor');
    await editor.getByRole('button', { name: 'Save targets' }).click();
    await expectToast(page, 'Targets saved');
    await expect.poll(() => panel.textContent()).toContain('1,547 kcal');
    expect(await panel.textContent()).toContain('60 g');
    expect(await panel.textContent()).toContain('The client sees numbers');
    await screenshot(page, 'nutrition-targets-panel');

    const saved = await server.deps.db
      .selectFrom('nutrition_targets')
      .selectAll()
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(saved.targets).toEqual({
      energyKcal: 1547,
      proteinG: 60,
      carbohydrateG: 240.2,
      fatG: 43,
      fibreG: 25,
      ironMg: 29,
      calciumMg: 1000,
      folateUg: 220,
      vitaminB12Ug: 2.5,
    });
    expect(saved.show_numbers).toBe(true);

    // The client sees their targets on Goals & Progress.
    const asClient = await signedInPage(browser, server, client, { viewport: PHONE });
    await asClient.page.goto('/dashboard/progress');
    await expect.poll(() => asClient.page.getByTestId('my-targets').textContent(), { timeout: 15_000 }).toContain('1,547 kcal');
    await screenshot(asClient.page, 'nutrition-targets-client');

    // Numbers hidden: the panel says so, and the client's page shows none.
    await page.getByRole('button', { name: 'Edit targets' }).click();
    await page
      .getByTestId('targets-editor')
      .getByRole('checkbox', { name: /The client sees numbers/ })
      .uncheck();
    await page.getByTestId('targets-editor').getByRole('button', { name: 'Save targets' }).click();
    await expectToast(page, 'Targets saved');
    await expect.poll(() => panel.textContent()).toContain('Numbers hidden from the client');
    // The page has its answer about targets (no numbers) before we look for them.
    const answered = asClient.page.waitForResponse((r) => r.url().includes('nutritionTargets.get'), { timeout: 15_000 });
    await asClient.page.reload();
    const answer = await (await answered).text();
    expect(answer).toContain('"showNumbers":false');
    expect(answer).not.toContain('1547');
    await expect.poll(() => asClient.page.getByRole('heading', { name: 'Goals', exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await asClient.page.getByTestId('my-targets').count()).toBe(0);
    expect(await asClient.page.textContent('body')).not.toContain('1,547');
    await asClient.context.close();

    // The same panel on a phone: nothing wider than the screen.
    const phone = await signedInPage(browser, server, null, { viewport: PHONE });
    await signInAsAdmin(phone.page, dietitian);
    await phone.page.goto(`/admin/clients/${client.id}`);
    const phonePanel = phone.page.getByTestId('nutrition-targets');
    await expect.poll(() => phonePanel.textContent(), { timeout: 15_000 }).toContain('1,547 kcal');
    await phone.page.getByRole('button', { name: 'Edit targets' }).click();
    await expect.poll(() => phone.page.getByTestId('targets-editor').isVisible()).toBe(true);
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone.page, 'nutrition-targets-editor');
    await phone.context.close();
  }, 240_000);
});

describe('the recipe editor', () => {
  it('at 1440 px a dietitian builds a dal from raw foods and sees its values per 100 g and per serving move as she types', async () => {
    const ids = await seedFoods(server.deps.db, { redGramDal: TEST_FOODS.redGramDal });
    const dietitian = await server.user({ role: 'admin', firstName: 'Meera' });
    const { page, context } = await signedInPage(browser, server, null, { viewport: DESKTOP });
    await signInAsAdmin(page, dietitian);
    await page.goto('/admin/foods');
    await page.getByRole('link', { name: 'Add a recipe' }).click();
    await expectPath(page, '/admin/foods/recipes/new');
    const editor = page.getByTestId('recipe-editor');
    await editor.getByLabel('Name (English)').fill('Browser dal');
    await editor.getByLabel('Hindi name').fill('दाल');
    const picker = editor.getByRole('combobox', { name: 'Add an ingredient' });
    await picker.fill('toor dal');
    await editor
      .getByRole('option', { name: /Red gram, dal/ })
      .first()
      .click();
    await editor.getByLabel('Grams of Red gram, dal').fill('100');
    const live = editor.getByTestId('recipe-live-values');
    await editor.getByLabel('Cooked weight (g)').fill('400');
    // 335 kcal and 21.7 g protein over 400 g cooked: 84 kcal and 5.4 g per 100 g.
    await expect.poll(() => live.textContent()).toContain('84 kcal');
    expect(await live.textContent()).toContain('5.4 g');
    await editor.getByLabel('Serving (g)').fill('150');
    await expect.poll(() => live.textContent()).toContain('126 kcal');
    await editor.getByLabel('Cooked weight (g)').fill('500');
    await expect.poll(() => live.textContent()).toContain('67 kcal');
    await screenshot(page, 'recipe-editor');
    await editor.getByRole('button', { name: 'Add the recipe' }).click();
    await expectToast(page, 'Browser dal added');
    await expectPath(page, /^\/admin\/foods\/\d+$/);
    const saved = await server.deps.db
      .selectFrom('foods')
      .select(['kind', 'per_100g', 'cooked_grams', 'serving_grams'])
      .where('name', '=', 'Browser dal')
      .executeTakeFirstOrThrow();
    expect(saved).toMatchObject({ kind: 'recipe', cooked_grams: 500, serving_grams: 150 });
    expect(saved.per_100g.proteinG).toBeCloseTo(4.34, 3);

    // Editing recomputes: the dal cooked down to 400 g.
    await page.getByRole('link', { name: 'Edit the recipe' }).click();
    await expectPath(page, /^\/admin\/foods\/recipes\/\d+$/);
    const again = page.getByTestId('recipe-editor');
    await expect.poll(() => again.getByLabel('Cooked weight (g)').inputValue(), { timeout: 10_000 }).toBe('500');
    await again.getByLabel('Cooked weight (g)').fill('400');
    await expect.poll(() => again.getByTestId('recipe-live-values').textContent()).toContain('84 kcal');
    await again.getByRole('button', { name: 'Save the recipe' }).click();
    await expectToast(page, 'Recipe saved');
    await expect
      .poll(
        async () =>
          (await server.deps.db.selectFrom('foods').select('per_100g').where('name', '=', 'Browser dal').executeTakeFirstOrThrow()).per_100g
            .proteinG,
      )
      .toBeCloseTo(5.425, 3);

    // The dal's page names the recipe, and archiving the dal is refused in words.
    await page.goto(`/admin/foods/${ids.redGramDal}`);
    await expect.poll(() => page.getByTestId('used-in-recipes').textContent(), { timeout: 10_000 }).toContain('Browser dal');
    await page.getByRole('button', { name: 'Archive' }).click();
    await expectToast(page, /ingredient of the recipe “Browser dal”/);

    // On a phone the editor fits the screen.
    const recipeId = (await server.deps.db.selectFrom('foods').select('id').where('name', '=', 'Browser dal').executeTakeFirstOrThrow()).id;
    const phone = await signedInPage(browser, server, null, { viewport: PHONE });
    await signInAsAdmin(phone.page, dietitian);
    await phone.page.goto(`/admin/foods/recipes/${recipeId}`);
    await expect.poll(() => phone.page.getByTestId('recipe-live-values').textContent(), { timeout: 15_000 }).toContain('84 kcal');
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone.page, 'recipe-editor');
    await phone.context.close();
    await context.close();
  }, 240_000);
});
