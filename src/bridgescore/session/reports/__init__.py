"""A scored event shown: the text report, the ranking tables, HTML, the results site,
DataFrames, guide and table cards, the PDF and the USEBIO export."""
