import { describe, expect, it } from 'vitest';
import { fuzzyBest, NAME_HINT_SCORE } from './fuzzy.ts';

/** The examples of PostgREST's own documentation of its hints (`noRpcHint` in Error.hs). */
describe('fuzzy hints', () => {
  const names = ['test', 'another'];
  it('suggest a name at least 0.75 alike', () => {
    expect(fuzzyBest(names, 'testt', NAME_HINT_SCORE)).toBe('test');
    expect(fuzzyBest(names, 'other', NAME_HINT_SCORE)).toBeUndefined();
    expect(fuzzyBest(names, 'noclosealternative', NAME_HINT_SCORE)).toBeUndefined();
  });

  it('suggest the parameter list most like the one given', () => {
    const lists = ['(name, param, val)', '(attr, id)'];
    expect(fuzzyBest(lists, '(nam, pqaram, vall)')).toBe('(name, param, val)');
    expect(fuzzyBest(lists, '(param, val)')).toBe('(name, param, val)');
    expect(fuzzyBest(lists, '(attrs, id)')).toBe('(attr, id)');
    expect(fuzzyBest(lists, '(id)')).toBe('(attr, id)');
    expect(fuzzyBest(lists, '(noclosealternative)')).toBeUndefined();
  });
});
