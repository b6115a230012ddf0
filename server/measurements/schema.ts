import { z } from 'zod';

/**
 * The one home of body-measurement limits: plausible human ranges, outside which
 * a value is a typo or the wrong unit. Every form, procedure, CLI and parser
 * that takes a height or a weight imports these (the browser too: zod only).
 */
export const HEIGHT_M = { min: 0.5, max: 2.6 } as const;
export const WEIGHT_KG = { min: 1, max: 500 } as const;

export const HEIGHT_RANGE_MESSAGE = `Height must be between ${HEIGHT_M.min} and ${HEIGHT_M.max} m`;
export const WEIGHT_RANGE_MESSAGE = `Weight must be between ${WEIGHT_KG.min} and ${WEIGHT_KG.max} kg`;

export const isPlausibleHeight = (metres: number) => metres >= HEIGHT_M.min && metres <= HEIGHT_M.max;
export const isPlausibleWeight = (kg: number) => kg >= WEIGHT_KG.min && kg <= WEIGHT_KG.max;

/** A height in metres within the range (a number already; wrap it for text inputs). */
export const heightMetres = z.number().min(HEIGHT_M.min, HEIGHT_RANGE_MESSAGE).max(HEIGHT_M.max, HEIGHT_RANGE_MESSAGE);
/** A weight in kg within the range. */
export const weightKilograms = z.number().min(WEIGHT_KG.min, WEIGHT_RANGE_MESSAGE).max(WEIGHT_KG.max, WEIGHT_RANGE_MESSAGE);
