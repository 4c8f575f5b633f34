-- The database benchmark of bench/programs: an in-memory SQLite database built, indexed and
-- queried (joins, aggregates, a recursive CTE).
CREATE TABLE customer(id INTEGER PRIMARY KEY, city TEXT, name TEXT);
CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INTEGER, amount REAL, day INTEGER);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
INSERT INTO customer SELECT i, 'city' || (i * 7919 % 97), 'name' || (i * 104729 % 4999) FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
INSERT INTO orders SELECT i, 1 + (i * 7907 % 5000), (i * 3571 % 10007) / 100.0, i % 365 FROM n;
CREATE INDEX orders_by_customer ON orders(customer);
CREATE INDEX customer_by_city ON customer(city);
SELECT c.city, count(*), round(sum(o.amount), 2) FROM orders o JOIN customer c ON c.id = o.customer
  GROUP BY c.city ORDER BY 3 DESC LIMIT 5;
SELECT day, round(avg(amount), 3) FROM orders WHERE amount > 50 GROUP BY day ORDER BY 2 DESC LIMIT 3;
SELECT count(DISTINCT name) FROM customer WHERE id IN (SELECT customer FROM orders WHERE day < 30);
UPDATE orders SET amount = amount * 1.1 WHERE customer % 3 = 0;
SELECT round(sum(amount), 2) FROM orders;
