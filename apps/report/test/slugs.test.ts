import { describe, expect, it } from 'vitest';
import { shortHash, slugify, uniqueSlugs } from '../src/build/slugs.js';

describe('slugify', () => {
  it('reduces names to [a-z0-9-_.]', () => {
    expect(slugify('-home-dev-My-App')).toBe('home-dev-my-app');
    expect(slugify('../../etc/<b>pwn</b>')).toBe('etc-b-pwn-b');
    expect(slugify('Explore')).toBe('explore');
    expect(slugify('日本語')).toBe('x');
    expect(slugify('...')).toBe('x');
    expect(slugify('a'.repeat(200)).length).toBe(64);
  });
  it('never yields a path segment that climbs or hides', () => {
    for (const name of ['..', '.', '.git', '../x', 'a/b', 'a\\b', 'CON']) {
      const s = slugify(name);
      expect(s).toMatch(/^[a-z0-9\-_][a-z0-9\-_.]*$/);
      expect(s).not.toContain('/');
    }
  });
});

describe('uniqueSlugs', () => {
  it('keeps distinct names as they are', () => {
    expect(uniqueSlugs(['alpha', 'beta'])).toEqual(['alpha', 'beta']);
  });
  it('gives names that collide case-insensitively a hash suffix each', () => {
    const [a, b] = uniqueSlugs(['-home-dev-My-App', '-home-dev-my-app']);
    expect(a).toBe(`home-dev-my-app-${shortHash('-home-dev-My-App')}`);
    expect(b).toBe(`home-dev-my-app-${shortHash('-home-dev-my-app')}`);
    expect(a).not.toBe(b);
  });
  it('does not depend on order', () => {
    const one = uniqueSlugs(['A b', 'a-b', 'c']);
    const two = uniqueSlugs(['c', 'a-b', 'A b']);
    expect(new Set(one)).toEqual(new Set(two));
  });
  it('separates equal names too', () => {
    const slugs = uniqueSlugs(['same', 'same', 'same']);
    expect(new Set(slugs.map((s) => s.toLowerCase())).size).toBe(3);
  });
  it('never collides with an existing slug that looks like a suffixed one', () => {
    const first = uniqueSlugs(['x y', 'x-y'])[0] as string;
    const slugs = uniqueSlugs(['x y', 'x-y', first]);
    expect(new Set(slugs).size).toBe(3);
  });
});
