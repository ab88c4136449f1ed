package bot

// BucketStripes is bucketStripes, for the tests of package bot_test.
const BucketStripes = bucketStripes
