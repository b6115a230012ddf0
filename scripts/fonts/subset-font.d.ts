/** subset-font 2.x ships no types: the one call scripts/fonts/subset-inter.ts makes. */
declare module 'subset-font' {
  export default function subsetFont(
    font: Buffer,
    text: string,
    options?: { targetFormat?: 'sfnt' | 'woff' | 'woff2'; variationAxes?: Record<string, number | { min: number; max: number }> },
  ): Promise<Buffer>;
}
