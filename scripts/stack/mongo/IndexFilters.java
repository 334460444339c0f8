import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import java.util.Set;
import java.util.UUID;

/**
 * What part of a filter an index may answer. Only values whose equality the engine and MongoDB
 * agree on are looked up (strings, numbers, booleans, dates, ids); anything else (null, arrays,
 * embedded documents, regular expressions, other operators) leaves the filter to a scan. An index
 * only narrows the candidates: the engine still matches every candidate against the whole filter,
 * so an index may return more documents than match, never fewer.
 */
final class IndexFilters {
  private IndexFilters() {}

  static final Set<String> RANGE_OPERATORS = Set.of("$lt", "$lte", "$gt", "$gte");

  /** A value compared by equality, e.g. {@code tenantId: "t1"}. */
  static boolean isEquality(Object value) {
    return value instanceof String
        || value instanceof Number
        || value instanceof Boolean
        || value instanceof Date
        || value instanceof Instant
        || value instanceof ObjectId
        || value instanceof UUID;
  }

  /** {@code {$in: [v1, v2]}} with equality values only. */
  static boolean isIn(Object value) {
    if (!(value instanceof Document condition) || condition.size() != 1 || !condition.containsKey("$in")) {
      return false;
    }
    Object values = condition.get("$in");
    return values instanceof Collection<?> list && list.stream().allMatch(IndexFilters::isEquality);
  }

  /** {@code {$lt|$lte|$gt|$gte: v, ...}} with equality values only. */
  static boolean isRange(Object value) {
    if (!(value instanceof Document condition) || condition.isEmpty()) {
      return false;
    }
    for (String operator : condition.keySet()) {
      if (!RANGE_OPERATORS.contains(operator) || !isEquality(condition.get(operator))) {
        return false;
      }
    }
    return true;
  }

  /** {@code {$exists: true}}. */
  static boolean isExists(Object value) {
    return value instanceof Document condition && condition.size() == 1 && Boolean.TRUE.equals(condition.get("$exists"));
  }
}
