import "server-only";
import type { Random } from "./seeded-random";

// A seeded abstract picture: a two-colour gradient at a random angle under translucent circles,
// rounded rectangles and rings. Only numbers from the PRNG enter the markup.

const fixed = (value: number) => value.toFixed(1);

function hslToHex(hue: number, saturation: number, lightness: number): string {
  const h = (((hue % 360) + 360) % 360) / 360;
  const channel = (offset: number) => {
    const k = (offset + h * 12) % 12;
    const a = saturation * Math.min(lightness, 1 - lightness);
    const value = lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

export function backgroundSvg(random: Random, width: number, height: number): string {
  const hue = random.between(0, 360);
  const accentHue = hue + random.between(40, 160);
  const angle = random.between(0, Math.PI * 2);
  const [dx, dy] = [Math.cos(angle) / 2, Math.sin(angle) / 2];
  const from = hslToHex(hue, random.between(0.5, 0.8), random.between(0.2, 0.38));
  const to = hslToHex(accentHue, random.between(0.55, 0.85), random.between(0.45, 0.65));
  const short = Math.min(width, height);

  const shapes: string[] = [];
  const count = random.int(7, 12);
  for (let i = 0; i < count; i++) {
    const colour = hslToHex(hue + random.between(-60, 200), random.between(0.4, 0.9), random.between(0.3, 0.8));
    const opacity = random.between(0.12, 0.42).toFixed(2);
    const [x, y] = [random.between(0, width), random.between(0, height)];
    const size = random.between(0.05, 0.35) * short;
    const kind = random.int(0, 2);
    if (kind === 0) {
      shapes.push(`<circle cx="${fixed(x)}" cy="${fixed(y)}" r="${fixed(size)}" fill="${colour}" fill-opacity="${opacity}"/>`);
    } else if (kind === 1) {
      const rotation = fixed(random.between(0, 90));
      shapes.push(
        `<rect x="${fixed(x - size)}" y="${fixed(y - size / 2)}" width="${fixed(size * 2)}" height="${fixed(size)}" rx="${fixed(size / 5)}" ` +
          `transform="rotate(${rotation} ${fixed(x)} ${fixed(y)})" fill="${colour}" fill-opacity="${opacity}"/>`,
      );
    } else {
      const stroke = fixed(random.between(0.01, 0.04) * short);
      shapes.push(
        `<circle cx="${fixed(x)}" cy="${fixed(y)}" r="${fixed(size)}" fill="none" stroke="${colour}" stroke-width="${stroke}" stroke-opacity="${opacity}"/>`,
      );
    }
  }

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="g" x1="${fixed(50 - dx * 100)}%" y1="${fixed(50 - dy * 100)}%" x2="${fixed(50 + dx * 100)}%" y2="${fixed(50 + dy * 100)}%">` +
    `<stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#g)"/>${shapes.join("")}</svg>`
  );
}
