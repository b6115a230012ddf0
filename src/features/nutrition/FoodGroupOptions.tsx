import { FOOD_GROUP_KEYS, FOOD_GROUPS } from '../../../server/nutrition/groups';

/** The food groups as a select's options, in the library's order (the food and recipe forms). */
export function FoodGroupOptions() {
  return FOOD_GROUP_KEYS.map((key) => (
    <option key={key} value={key}>
      {FOOD_GROUPS[key].label}
    </option>
  ));
}
