import type { ImageSection, ImageSymbol, InputFormat } from '../types.js';

/** What a format reader returns: the code sections and symbols of one x86 image. */
export interface BinaryImage {
  format: InputFormat;
  bitness: 32 | 64;
  machine: string;
  sections: ImageSection[];
  symbols: ImageSymbol[];
}
