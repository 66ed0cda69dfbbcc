/// Instances of SkeletonData stored as columns, and the systems that pose them.
public enum BoneworkWorldModule {}
