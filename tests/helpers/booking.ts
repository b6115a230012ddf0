/** A valid consultation booking (India, country 356), for the consultation and limit tests. */
export const sampleBooking = {
  name: 'Meena Pillai',
  email: 'meena@example.test',
  gender: 2,
  age: 38,
  height: '5\'3"',
  weight: 74,
  state: 'Kerala',
  contact: '9876543210',
  country: 356,
  isMedicalCondition: true,
};
