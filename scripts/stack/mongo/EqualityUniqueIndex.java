import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.exception.KeyConstraintError;
import java.util.List;

/**
 * A unique index (the engine's own, delegated to) that also serves filters naming more fields
 * than the index: {@code {_id: x, tenantId: t}} is answered by the {@code _id} index, as MongoDB
 * does. The engine alone uses a unique index only when the filter's fields are exactly the
 * index's, so every owner-scoped lookup by id would scan the collection.
 */
final class EqualityUniqueIndex extends Index<Object> {
  private final Index<Object> unique;

  EqualityUniqueIndex(Index<Object> unique, String name, List<IndexKey> keys, boolean sparse) {
    super(name, keys, sparse);
    this.unique = unique;
  }

  @Override
  public boolean canHandle(Document query) {
    return unique.canHandle(query) || narrowed(query) != null;
  }

  @Override
  public Iterable<Object> getPositions(Document query) {
    return unique.canHandle(query) ? unique.getPositions(query) : unique.getPositions(narrowed(query));
  }

  /** The filter cut to this index's fields, when each is an equality (or, alone, an $in); else null. */
  private Document narrowed(Document query) {
    List<String> keys = keys();
    if (query.size() <= keys.size()) {
      return null;
    }
    Document narrowed = new Document();
    for (String key : keys) {
      Object value = query.get(key);
      if (!IndexFilters.isEquality(value) && !(keys.size() == 1 && IndexFilters.isIn(value))) {
        return null;
      }
      narrowed.put(key, value);
    }
    return unique.canHandle(narrowed) ? narrowed : null;
  }

  @Override public boolean isUnique() { return true; }
  @Override public Object getPosition(Document document) { return unique.getPosition(document); }
  @Override public void checkAdd(Document document, MongoCollection<Object> collection) { unique.checkAdd(document, collection); }
  @Override public void add(Document document, Object position, MongoCollection<Object> collection) { unique.add(document, position, collection); }
  @Override public Object remove(Document document) { return unique.remove(document); }
  @Override public long getCount() { return unique.getCount(); }
  @Override public boolean isEmpty() { return unique.isEmpty(); }
  @Override public long getDataSize() { return unique.getDataSize(); }
  @Override public void drop() { unique.drop(); }

  @Override
  public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<Object> collection) {
    unique.checkUpdate(oldDocument, newDocument, collection);
  }

  @Override
  public void updateInPlace(Document oldDocument, Document newDocument, Object position, MongoCollection<Object> collection)
      throws KeyConstraintError {
    unique.updateInPlace(oldDocument, newDocument, position, collection);
  }
}
