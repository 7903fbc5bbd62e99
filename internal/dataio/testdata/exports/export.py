# Writes the pandas and scikit-learn fixtures of dataio's export tests:
# the first 30 rows of scikit-learn's wine data, exported the ways people
# export tables. Run by generate.sh (Debian: python3-pandas, python3-sklearn).
import numpy as np
import pandas as pd
from sklearn.datasets import dump_svmlight_file, load_wine

wine = load_wine()
X, y = wine.data[:30], wine.target[:30]
names = [n.replace("/", "_") for n in wine.feature_names]

pd.DataFrame(X).to_csv("reference.csv", header=False, index=False)
pd.DataFrame(X).to_csv("pandas-intcols-noindex.csv", index=False)
pd.DataFrame(X).to_csv("pandas-intcols-index.csv")
df = pd.DataFrame(X, columns=names)
df.to_csv("pandas-index.csv")
df.to_csv("pandas-index.tsv", sep="\t")
df.to_csv("pandas-index.csv.gz", compression={"method": "gzip", "mtime": 0})
df.rename_axis("sample").to_csv("pandas-named-index.csv")
df.sample(frac=0.6, random_state=0).sort_index().to_csv("pandas-sampled.csv")
withid = df.copy()
withid.insert(0, "id", np.arange(1001, 1001 + len(df)))
withid["cultivar"] = [wine.target_names[k] for k in y]
withid.to_csv("pandas-id-label.csv", index=False)

dump_svmlight_file(X, y, "sklearn-zero-based.svm")
dump_svmlight_file(X, y, "sklearn-one-based.svm", zero_based=False)
dump_svmlight_file(X, y, "sklearn-comment.svm", comment="wine, first 30 rows")
