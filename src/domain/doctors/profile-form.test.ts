import { describe, expect, it } from 'vitest';
import { avatarPath, avatarProblem, AVATAR_MESSAGES } from './avatar.ts';
import {
  profileChanges,
  toProfileForm,
  formTouched,
  type StoredDoctorProfile,
} from './profile-form.ts';

const STORED: StoredDoctorProfile = {
  public_name: 'Dra. Ana Ribeiro',
  specialty: 'Clínica Geral',
  crm: '123456',
  uf: 'SP',
  price_in_cents: 15000,
  bio: null,
  doctoralia_reviews_url: null,
};

describe('doctor profile form', () => {
  const initial = toProfileForm(STORED);

  it('starts from the stored values, the price as 150.00', () => {
    expect(initial).toMatchObject({ price: '150.00', bio: '', uf: 'SP' });
    expect(formTouched(initial, initial)).toBe(false);
    expect(formTouched({ ...initial, bio: 'x' }, initial)).toBe(true);
  });

  it('answers "Nenhuma alteração detectada." when the typed values normalise to the stored ones', () => {
    expect(profileChanges({ ...initial, price: '150', uf: 'sp', crm: ' 123456 ' }, STORED)).toEqual(
      {
        ok: false,
        unchanged: true,
        message: 'Nenhuma alteração detectada.',
      },
    );
  });

  it('returns only the changed columns; price with comma or dot', () => {
    expect(profileChanges({ ...initial, price: '130,50' }, STORED)).toEqual({
      ok: true,
      changes: { price_in_cents: 13050 },
    });
    expect(profileChanges({ ...initial, price: '130.5', bio: 'Atendo adultos.' }, STORED)).toEqual({
      ok: true,
      changes: { price_in_cents: 13050, bio: 'Atendo adultos.' },
    });
  });

  it.each([
    ['public_name', '', 'Nome público é obrigatório'],
    ['specialty', ' ', 'Especialidade é obrigatória'],
    ['crm', '', 'CRM é obrigatório'],
    ['uf', '', 'UF é obrigatório'],
    ['price', '', 'Preço é obrigatório'],
    ['price', '-1', 'O preço não pode ser negativo.'],
    ['price', '13o', 'Preço inválido. Use números (ex.: 130 ou 130.00).'],
    ['doctoralia_reviews_url', 'doctoralia', 'Por favor, insira uma URL válida.'],
  ] as const)('%s = %j → %s', (field, value, message) => {
    expect(profileChanges({ ...initial, [field]: value }, STORED)).toEqual({
      ok: false,
      errors: { [field]: message },
    });
  });

  it('clearing the reviews link stores null', () => {
    const withLink = { ...STORED, doctoralia_reviews_url: 'https://www.doctoralia.com.br/ana' };
    expect(
      profileChanges({ ...toProfileForm(withLink), doctoralia_reviews_url: '' }, withLink),
    ).toEqual({
      ok: true,
      changes: { doctoralia_reviews_url: null },
    });
  });
});

describe('avatar', () => {
  it.each([
    [{ type: 'image/png', size: 10 }, null],
    [{ type: 'image/jpeg', size: 2 * 1024 * 1024 }, null],
    [{ type: 'image/webp', size: 1 }, null],
    [{ type: 'image/gif', size: 10 }, AVATAR_MESSAGES.wrongType],
    [{ type: 'application/pdf', size: 10 }, AVATAR_MESSAGES.wrongType],
    [{ type: 'image/png', size: 2 * 1024 * 1024 + 1 }, AVATAR_MESSAGES.tooLarge],
    [{ type: 'image/png', size: 0 }, AVATAR_MESSAGES.empty],
  ])('%j → %s', (file, problem) => {
    expect(avatarProblem(file)).toBe(problem);
  });

  it('is stored at {user id}/{timestamp}_{filename} with a key-safe name', () => {
    expect(avatarPath('u1', 1700000000000, 'foto.png')).toBe('u1/1700000000000_foto.png');
    expect(avatarPath('u1', 1, 'Minha Foto Ação (1).JPG')).toBe('u1/1_Minha_Foto_Acao_1_.JPG');
    expect(avatarPath('u1', 1, '../../x.png')).toBe('u1/1_x.png');
    expect(avatarPath('u1', 1, '')).toBe('u1/1_foto');
  });
});
