import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.bson.Document;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * A non-unique index, which mongo-java-server leaves to its backends and the H2 backend ignores
 * (its {@code openOrCreateSecondaryIndex} extension point returns an empty index).
 *
 * <p>Kept in memory and rebuilt from the documents when the engine opens the collection, so it can
 * never disagree with the data file after a crash. Serves a filter with equality on a leading part
 * of its keys ({@code {tenantId: t, status: s}} from {@code {tenantId: 1, createdAt: -1}}), and a
 * range or {@code $exists: true} on a one-field index (the outbox sweep). The engine then matches
 * each returned document against the whole filter, sorts and limits.
 *
 * <p>Should a document ever be impossible to index (parallel arrays), the index stops serving
 * queries and says so once: filters fall back to a scan instead of missing that document.
 */
final class SecondaryIndex extends Index<Object> {
  private static final Comparator<Object> VALUES = ValueComparator.asc();
  /** Element by element; a shorter key sorts before every key it is a prefix of. */
  private static final Comparator<List<Object>> KEYS = (a, b) -> {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = VALUES.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  };

  private final boolean sparse;
  /** Key values → (document _id → position). */
  private final TreeMap<List<Object>, Map<Object, Object>> entries = new TreeMap<>(KEYS);
  private long count;
  private boolean unusable;

  SecondaryIndex(String name, List<IndexKey> keys, boolean sparse) {
    super(name, keys, sparse);
    this.sparse = sparse;
  }

  /** Lets the collection remove a document this index did not hold (a sparse miss) without failing. */
  @Override
  protected boolean isSparse() {
    return true;
  }

  @Override
  public synchronized boolean canHandle(Document query) {
    if (unusable) {
      return false;
    }
    List<String> keys = keys();
    if (IndexFilters.isEquality(query.get(keys.get(0)))) {
      return true;
    }
    Object condition = query.get(keys.get(0));
    return keys.size() == 1 && (IndexFilters.isRange(condition) || (sparse && IndexFilters.isExists(condition)));
  }

  @Override
  public synchronized Iterable<Object> getPositions(Document query) {
    List<String> keys = keys();
    List<Object> prefix = new ArrayList<>();
    for (String key : keys) {
      Object value = query.get(key);
      if (!IndexFilters.isEquality(value)) {
        break;
      }
      prefix.add(normalize(value));
    }
    Set<Object> positions = new LinkedHashSet<>();
    if (!prefix.isEmpty()) {
      for (Map.Entry<List<Object>, Map<Object, Object>> entry : entries.tailMap(prefix, true).entrySet()) {
        if (KEYS.compare(entry.getKey().subList(0, prefix.size()), prefix) != 0) {
          break;
        }
        positions.addAll(entry.getValue().values());
      }
      return positions;
    }
    Object condition = query.get(keys.get(0));
    NavigableMap<List<Object>, Map<Object, Object>> range = entries;
    if (condition instanceof Document bounds && IndexFilters.isRange(bounds)) {
      // One bound only: with both, a multikey document may match through two different elements.
      Object lower = bounds.containsKey("$gt") ? bounds.get("$gt") : bounds.get("$gte");
      Object upper = bounds.containsKey("$lt") ? bounds.get("$lt") : bounds.get("$lte");
      range = lower != null ? entries.tailMap(List.of(normalize(lower)), true) : entries.headMap(List.of(normalize(upper)), true);
    }
    for (Map<Object, Object> documents : range.values()) {
      positions.addAll(documents.values());
    }
    return positions;
  }

  @Override
  public synchronized void add(Document document, Object position, MongoCollection<Object> collection) {
    if (unusable) {
      return;
    }
    Set<KeyValue> keyValues;
    try {
      keyValues = getKeyValues(document);
    } catch (RuntimeException e) {
      unusable = true;
      entries.clear();
      count = 0;
      System.err.printf("index %s of %s no longer serves queries: %s%n", getName(), collection.getFullName(), e.getMessage());
      return;
    }
    Object id = document.get("_id");
    for (KeyValue keyValue : keyValues) {
      List<Object> key = toList(keyValue);
      if (sparse && key.stream().allMatch(v -> v == null)) {
        continue;
      }
      if (entries.computeIfAbsent(key, k -> new HashMap<>()).put(id, position) == null) {
        count++;
      }
    }
  }

  @Override
  public synchronized Object remove(Document document) {
    if (unusable) {
      return null;
    }
    Object id = document.get("_id");
    Object removed = null;
    for (KeyValue keyValue : getKeyValues(document)) {
      List<Object> key = toList(keyValue);
      Map<Object, Object> documents = entries.get(key);
      if (documents == null) {
        continue;
      }
      Object position = documents.remove(id);
      if (position != null) {
        removed = position;
        count--;
      }
      if (documents.isEmpty()) {
        entries.remove(key);
      }
    }
    return removed;
  }

  @Override
  public synchronized void updateInPlace(Document oldDocument, Document newDocument, Object position, MongoCollection<Object> collection) {
    if (unusable || getKeyValues(oldDocument).equals(getKeyValues(newDocument))) {
      return;
    }
    remove(oldDocument);
    add(newDocument, position, collection);
  }

  @Override public Object getPosition(Document document) { return null; } // never identifies one document
  @Override public void checkAdd(Document document, MongoCollection<Object> collection) {}
  @Override public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<Object> collection) {}
  @Override public synchronized long getCount() { return count; }
  @Override public synchronized boolean isEmpty() { return count == 0; }
  @Override public synchronized long getDataSize() { return count; }

  @Override
  public synchronized void drop() {
    entries.clear();
    count = 0;
  }

  private static List<Object> toList(KeyValue keyValue) {
    List<Object> values = new ArrayList<>(keyValue.size());
    keyValue.forEach(values::add);
    return values;
  }

  /** The engine's own key normalization (Utils.normalizeValue) for the values isEquality accepts. */
  private static Object normalize(Object value) {
    if (value instanceof Long l && l.longValue() != (long) l.doubleValue()) {
      return l;
    }
    if (value instanceof Number n) {
      double d = n.doubleValue();
      return d == -0.0 ? 0.0 : d;
    }
    return value;
  }
}
