/** A dozen feed posts from the dietitian, newest first, each dated some hours before the seed runs. */
export const DEMO_FEED_POSTS: { hoursAgo: number; text: string }[] = [
  {
    hoursAgo: 3,
    text: 'Live Q&A this Saturday at 11 am: managing PCOD through food.\nSend your questions in the chat beforehand and we will answer as many as we can.',
  },
  {
    hoursAgo: 30,
    text: 'Client win: 7 kg down in 16 weeks, without giving up the Sunday dosa. Slow and steady works!',
  },
  {
    hoursAgo: 3 * 24 + 4,
    text: 'Reminder: update your weight every Monday morning, before breakfast, on the Update Weight screen.\nSame time, same scale: that is how we see the real trend.',
  },
  {
    hoursAgo: 6 * 24 + 2,
    text: 'New for the Weight Gain plans: a post-workout snack guide (boiled eggs, chana sundal, banana with peanut butter). Ask your dietitian to add it to your plan.',
  },
  {
    hoursAgo: 9 * 24 + 6,
    text: 'Festive season ahead. Enjoy the sweets, but have them after a meal rather than on an empty stomach, and share a piece instead of finishing a whole one.',
  },
  {
    hoursAgo: 13 * 24 + 1,
    text: 'Sleep matters for weight loss. Fewer than 6 hours raises hunger hormones the next day.\nAim for 7 to 8 hours, and finish dinner by 8:30 pm.',
  },
  {
    hoursAgo: 17 * 24 + 3,
    text: 'Millets are back! Jowar, bajra and ragi rotis keep you full longer than maida. Start by mixing 1 part millet flour with 2 parts atta.',
  },
  {
    hoursAgo: 21 * 24 + 5,
    text: 'Hydration is not only water: buttermilk, coconut water, nimbu pani without sugar and clear soups all count towards your 2.5 litres.',
  },
  {
    hoursAgo: 26 * 24 + 2,
    text: 'Monsoon tip: eat freshly cooked food, wash leafy greens well, and save street food for drier days.',
  },
  {
    hoursAgo: 31 * 24 + 7,
    text: 'Swap of the week: roasted makhana instead of evening biscuits. Same crunch, a fraction of the calories, and plenty of magnesium.',
  },
  {
    hoursAgo: 37 * 24 + 1,
    text: 'Protein check: a katori of dal gives about 7 g of protein. Add a katori of curd and a handful of roasted chana and you cross 20 g before dinner.',
  },
  {
    hoursAgo: 44 * 24 + 3,
    text: 'Fasting for Navratri? It need not mean sabudana vada every day. Try rajgira roti with lauki sabzi, or fruit with curd. Message us for a fasting-friendly plan.',
  },
];
